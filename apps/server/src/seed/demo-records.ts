// The demo prison: blocks, cells, prisoners, police, guards and incidents, seeded on an empty database in demo mode.
// Every record goes through the same service functions as the API, so the seed cannot create what the API would
// refuse (a full cell, a bad date, an unknown country). A fixed pseudo-random sequence makes it reproducible.
import { count } from 'drizzle-orm';
import {
  GUARD_RANKS,
  isCountryName,
  type CellInput,
  type KeepApartReason,
  type KeepApartScope,
  type PrisonerCreateInput,
  type PrisonerStatus,
  type StaffInput,
} from '@prison/shared';
import type { Db } from '../db/client';
import { cells, prisoners } from '../db/schema';
import { SYSTEM_ACTOR, type AuditActor } from '../lib/audit';
import { createCell } from '../modules/cells/cell-service';
import { createPair } from '../modules/keep-apart/keep-apart-service';
import { createIncident } from '../modules/incidents/incident-service';
import { createPrisoner } from '../modules/prisoners/prisoner-service';
import { createStaffMember } from '../modules/staff/staff-service';

const SEED_ACTOR: AuditActor = { ...SYSTEM_ACTOR, actor: 'demo-seed' };

export const DEMO_COUNTS = { blocks: 3, cells: 60, prisoners: 150, police: 20, guards: 30, incidents: 6, keepApartPairs: 2 } as const;

const DEMO_KEEP_APART: [KeepApartReason, KeepApartScope, string][] = [
  ['Violence', 'block', 'Fight on the exercise yard; one needed hospital treatment.'],
  ['Gang related', 'cell', 'Rival groups; police intelligence report on file.'],
];

/** mulberry32: a tiny seeded generator, enough for believable, repeatable demo data. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  return { next, int, pick, chance, shuffle };
}
type Random = ReturnType<typeof seededRandom>;

/** Names that go together with a nationality, so the records read like a real roll. */
interface NameGroup {
  countries: string[];
  weight: number;
  male: string[];
  female: string[];
  last: string[];
}

const NAME_GROUPS: NameGroup[] = [
  {
    countries: ['United Kingdom', 'United Kingdom', 'United Kingdom', 'Ireland', 'United States of America'],
    weight: 55,
    male: [
      'James',
      'Oliver',
      'Harry',
      'Jack',
      'George',
      'Daniel',
      'Thomas',
      'Liam',
      'Connor',
      'Ryan',
      'Callum',
      'Jamie',
      'Lewis',
      'Aaron',
      'Dean',
      'Wayne',
      'Craig',
      'Stuart',
      'Gary',
      'Kevin',
    ],
    female: ['Amelia', 'Chloe', 'Sophie', 'Emma', 'Kelly', 'Leanne', 'Gemma', 'Siobhan', 'Kayleigh', 'Rebecca'],
    last: [
      'Smith',
      'Jones',
      'Taylor',
      'Brown',
      'Williams',
      'Wilson',
      'Johnson',
      'Davies',
      'Evans',
      'Walker',
      'Wright',
      'Thompson',
      'Murphy',
      "O'Brien",
      'Kelly',
      'Hughes',
      'Edwards',
      'Green',
      'Hall',
      'Wood',
      'Clarke',
      'Turner',
      'Harris',
      'Baker',
      'Mitchell',
      'Doyle',
      'Byrne',
      'Carter',
    ],
  },
  {
    countries: ['Poland', 'Lithuania', 'Ukraine'],
    weight: 10,
    male: ['Piotr', 'Tomasz', 'Marek', 'Jakub', 'Andrius', 'Tadas', 'Oleksandr', 'Dmytro', 'Pawel', 'Mindaugas'],
    female: ['Agnieszka', 'Katarzyna', 'Ruta', 'Olena', 'Marta'],
    last: [
      'Kowalski',
      'Nowak',
      'Wisniewski',
      'Zielinski',
      'Kazlauskas',
      'Petrauskas',
      'Shevchenko',
      'Bondarenko',
      'Lewandowski',
      'Wojcik',
    ],
  },
  {
    countries: ['Romania', 'Albania'],
    weight: 8,
    male: ['Andrei', 'Mihai', 'Florin', 'Ionut', 'Arben', 'Besnik', 'Dritan', 'Gabriel'],
    female: ['Elena', 'Ioana', 'Anisa', 'Mirela'],
    last: ['Popescu', 'Ionescu', 'Dumitru', 'Stan', 'Hoxha', 'Shehu', 'Krasniqi', 'Gashi'],
  },
  {
    countries: ['Nigeria', 'Ghana', 'Jamaica', 'Somalia'],
    weight: 9,
    male: ['Chinedu', 'Emeka', 'Kwame', 'Kofi', 'Delroy', 'Marlon', 'Abdi', 'Tunde', 'Femi', 'Kwabena'],
    female: ['Ngozi', 'Ama', 'Shanice', 'Hodan', 'Funmilayo'],
    last: ['Okafor', 'Adeyemi', 'Mensah', 'Asante', 'Campbell', 'Brown', 'Farah', 'Okonkwo', 'Boateng', 'Williams'],
  },
  {
    countries: ['Spain', 'Portugal', 'Brazil', 'Colombia', 'Mexico', 'Italy'],
    weight: 8,
    male: ['Carlos', 'Javier', 'Joao', 'Rafael', 'Luis', 'Diego', 'Marco', 'Alessandro', 'Tiago', 'Andres'],
    female: ['Lucia', 'Ana', 'Mariana', 'Giulia', 'Camila'],
    last: ['Garcia', 'Fernandez', 'Silva', 'Santos', 'Rodriguez', 'Lopez', 'Rossi', 'Romano', 'Pereira', 'Moreno'],
  },
  {
    countries: ['Pakistan', 'India', 'Morocco', 'Türkiye'],
    weight: 7,
    male: ['Imran', 'Bilal', 'Rajesh', 'Arjun', 'Youssef', 'Mehmet', 'Hamza', 'Emre', 'Karim', 'Sunil'],
    female: ['Ayesha', 'Priya', 'Fatima', 'Zeynep'],
    last: ['Khan', 'Hussain', 'Patel', 'Singh', 'Sharma', 'El Amrani', 'Benali', 'Yilmaz', 'Demir', 'Ahmed'],
  },
  {
    countries: ['Vietnam', "People's Republic of China", 'Germany', 'France', 'Netherlands'],
    weight: 3,
    male: ['Minh', 'Wei', 'Lukas', 'Julien', 'Daan', 'Hung'],
    female: ['Linh', 'Mei', 'Camille', 'Anna'],
    last: ['Nguyen', 'Tran', 'Chen', 'Wang', 'Muller', 'Schmidt', 'Dubois', 'Bernard', 'de Vries', 'Bakker'],
  },
];

const BEHAVIOR_REMARKS = [
  'Compliant with staff. Attends education classes.',
  'Verbal altercation with cellmate in the last quarter; no violence since.',
  'Works in the kitchen; good reports from the supervisor.',
  'Refused cell search once; warned.',
  'Enrolled in the anger management programme.',
  'Model prisoner; trusted with library duties.',
  'Found with contraband tobacco; privileges reduced for 14 days.',
];

const MEDICAL_NOTES = [
  'Type 2 diabetes; daily metformin.',
  'Asthma; inhaler kept in cell.',
  'Penicillin allergy.',
  'Hypertension, monitored monthly.',
  'Recovering from a knee injury; no yard sports.',
  'On methadone programme.',
  'No known conditions.',
];

const POLICE_RANKS = [
  'Constable',
  'Constable',
  'Sergeant',
  'Inspector',
  'Chief Inspector',
  'Detective Constable',
  'Detective Sergeant',
];
const POLICE_DEPARTMENTS = ['Patrol', 'Patrol', 'CID', 'SWAT', 'Forensics', 'Homicide', 'Narcotics'] as const;

const iso = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (isoDate: string, days: number) =>
  iso(new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000));

/** 60 cells over blocks A (high security), B (medium) and C (low, larger dormitory cells). */
function demoCells(random: Random): CellInput[] {
  const plan = [
    { block: 'A', levels: ['High', 'High', 'High', 'Medium'] as const, capacities: [1, 2, 2] },
    { block: 'B', levels: ['Medium', 'Medium', 'High', 'Low'] as const, capacities: [2, 3, 3, 4] },
    { block: 'C', levels: ['Low', 'Low', 'Medium'] as const, capacities: [2, 3, 4, 4] },
  ];
  return plan.flatMap(({ block, levels, capacities }) =>
    Array.from({ length: 20 }, (_, i) => ({
      // Two landings of ten cells each: A-101 … … A-210.
      cell_id: `${block}-${i < 10 ? 100 + i + 1 : 200 + i - 9}`,
      block,
      capacity: random.pick(capacities),
      security_level: random.pick(levels),
    })),
  );
}

function pickNameGroup(random: Random): NameGroup {
  const total = NAME_GROUPS.reduce((sum, g) => sum + g.weight, 0);
  let roll = random.next() * total;
  for (const group of NAME_GROUPS) {
    roll -= group.weight;
    if (roll < 0) return group;
  }
  return NAME_GROUPS[0]!;
}

function statusFor(index: number): PrisonerStatus {
  // Of every twenty: 11 incarcerated, 4 on trial, 3 released, 2 transferred.
  const slot = index % 20;
  if (slot < 11) return 'Incarcerated';
  if (slot < 15) return 'On Trial';
  if (slot < 18) return 'Released';
  return 'Transferred';
}

/** A prisoner's record without the cell (the seed assigns cells afterwards, as an operator would). */
function demoPrisoner(random: Random, status: PrisonerStatus, today: string): PrisonerCreateInput {
  const group = pickNameGroup(random);
  const gender = random.chance(0.9) ? 'Male' : random.chance(0.95) ? 'Female' : 'Other';
  const firstNames =
    gender === 'Female' ? group.female : gender === 'Male' ? group.male : [...group.male, ...group.female];
  const year = Number(today.slice(0, 4));
  const birth = iso(new Date(Date.UTC(random.int(year - 67, year - 21), random.int(0, 11), random.int(1, 28))));
  // Entry after the 18th birthday, within the last fourteen years; people on trial arrived in the last 18 months.
  const lookBack = status === 'On Trial' ? -540 : -14 * 365;
  const earliestEntry = Math.max(Date.parse(addDays(birth, 18 * 365 + 5)), Date.parse(addDays(today, lookBack)));
  const latestEntry = Date.parse(addDays(today, status === 'On Trial' ? -7 : -120));
  const entry = iso(new Date(earliestEntry + random.next() * Math.max(0, latestEntry - earliestEntry)));
  let release: string | null = null;
  if (status === 'Released') {
    const from = Date.parse(addDays(entry, 30));
    release = iso(new Date(from + random.next() * Math.max(0, Date.parse(addDays(today, -1)) - from)));
  }
  // The end of the sentence, when one is set, lies ahead.
  if (status === 'Incarcerated' && random.chance(0.8)) release = addDays(today, random.int(30, 365 * 12));
  if (status === 'Transferred' && random.chance(0.5)) release = addDays(today, random.int(60, 365 * 8));
  return {
    first_name: random.pick(firstNames),
    last_name: random.pick(group.last),
    date_of_birth: birth,
    gender,
    national_id: random.pick(group.countries),
    entry_date: entry,
    release_date: release,
    status,
    cell_id: null,
    behavior_record: random.chance(0.45) ? random.pick(BEHAVIOR_REMARKS) : null,
    medical_history: random.chance(0.35) ? random.pick(MEDICAL_NOTES) : null,
  };
}

function staffName(random: Random) {
  const group = random.chance(0.7) ? NAME_GROUPS[0]! : pickNameGroup(random);
  const female = random.chance(0.35);
  return { first_name: random.pick(female ? group.female : group.male), last_name: random.pick(group.last) };
}

function demoStaff(random: Random): StaffInput[] {
  const police = Array.from({ length: DEMO_COUNTS.police }, (_, i): StaffInput => {
    const name = staffName(random);
    return {
      ...name,
      role: 'Police',
      badge_number: String(4100 + i * 7),
      rank: random.pick(POLICE_RANKS),
      department: random.pick(POLICE_DEPARTMENTS),
      contact_info:
        `${name.first_name}.${name.last_name}`.toLowerCase().replace(/[^a-z.]/g, '') + '@police.example.org',
    };
  });
  const guards = Array.from({ length: DEMO_COUNTS.guards }, (_, i): StaffInput => {
    const name = staffName(random);
    return {
      ...name,
      role: 'Guard',
      badge_number: String(72000 + i * 13),
      // Roughly one supervisor for every five guards.
      rank: i % 5 === 0 ? GUARD_RANKS[1] : GUARD_RANKS[0],
      department: null,
      contact_info: `+44 7700 900${String(100 + i * 3).padStart(3, '0')}`,
    };
  });
  return [...police, ...guards];
}

function demoIncidents(prisonerNames: string[], guardNames: string[], today: string) {
  const samples = [
    {
      daysAgo: 13,
      time: '07:45',
      description: 'Fight in the B-block canteen queue during breakfast; one prisoner with a cut above the eye.',
      actionTaken:
        'Both prisoners separated and escorted to their cells; injured prisoner treated by the nurse; CCTV retained.',
    },
    {
      daysAgo: 11,
      time: '14:20',
      description: 'Mobile phone and charger found hidden inside a hollowed-out book during a routine cell search.',
      actionTaken:
        'Items confiscated and logged as evidence; prisoner placed on report; cell added to the search rota.',
    },
    {
      daysAgo: 8,
      time: '22:10',
      description: 'Prisoner refused to return to cell at lock-up and barricaded himself in the association room.',
      actionTaken:
        'Supervisor negotiated for 25 minutes; prisoner returned voluntarily; loss of association privileges for 7 days.',
    },
    {
      daysAgo: 5,
      time: '10:05',
      description: 'Visitor attempted to pass a small package during a visit in the main visits hall.',
      actionTaken:
        'Visit terminated; package seized (suspected drugs) and handed to the police; visitor banned pending review.',
    },
    {
      daysAgo: 2,
      time: '03:30',
      description: 'Night patrol found a prisoner unwell and short of breath in a single cell on A wing.',
      actionTaken:
        'Cell opened under the emergency protocol; first aid given; prisoner taken to hospital under escort and returned the next day.',
    },
    {
      daysAgo: 1,
      time: '16:50',
      description: 'Tracking tag reported tampering during an outdoor work party near the perimeter fence.',
      actionTaken:
        'Work party stopped and counted; tag inspected and replaced; prisoner moved to indoor work pending investigation.',
    },
  ];
  return samples.map(({ daysAgo, ...sample }, i) => ({
    ...sample,
    date: addDays(today, -daysAgo),
    prisonerName: prisonerNames[(i * 17) % prisonerNames.length] ?? 'Unknown prisoner',
    guardName: guardNames[(i * 5) % guardNames.length] ?? 'Duty officer',
  }));
}

/**
 * Seeds a believable prison on an empty database (no prisoners and no cells); otherwise does nothing.
 * The same records every time; their dates are placed around `now` so the demo reads as current.
 */
export async function seedDemoRecords(db: Db, now = new Date()): Promise<{ seeded: boolean }> {
  const today = iso(now);
  return db.transaction(async (tx) => {
    const [[p], [c]] = await Promise.all([
      tx.select({ n: count() }).from(prisoners),
      tx.select({ n: count() }).from(cells),
    ]);
    if ((p?.n ?? 0) > 0 || (c?.n ?? 0) > 0) return { seeded: false };

    const random = seededRandom(20240611);
    const cellPlan = demoCells(random);
    for (const cell of cellPlan) await createCell(tx, SEED_ACTOR, cell);

    // Fill a fifth of the cells to capacity, then spread the other occupants over the cells with room. A cell holds
    // one sex (decision 031): it takes the sex of its first occupant; a prisoner recorded as Other gets a cell alone,
    // placed with an override as an officer would after a placement review.
    const freePlaces = new Map(cellPlan.map((cell) => [cell.cell_id, cell.capacity]));
    const capacityOf = new Map(cellPlan.map((cell) => [cell.cell_id, cell.capacity]));
    const cellSex = new Map<string, string>();
    const fits = (id: string, gender: string) =>
      freePlaces.get(id)! > 0 &&
      (gender === 'Other' ? freePlaces.get(id) === capacityOf.get(id) : (cellSex.get(id) ?? gender) === gender);
    const fillFirst = random.shuffle(cellPlan.map((cell) => cell.cell_id)).slice(0, 12);
    const placeFor = (gender: string) => {
      const target = fillFirst.find((id) => fits(id, gender));
      if (target) return target;
      // Otherwise a cell chosen in proportion to its free places, so the rest fill evenly.
      const open = [...freePlaces].filter(([id]) => fits(id, gender));
      let roll = random.next() * open.reduce((sum, [, free]) => sum + free, 0);
      for (const [id, free] of open) {
        roll -= free;
        if (roll < 0) return id;
      }
      return null;
    };

    const prisonerNames: string[] = [];
    const placed: { id: number; block: string }[] = [];
    const blockOf = new Map(cellPlan.map((cell) => [cell.cell_id, cell.block]));
    for (let i = 0; i < DEMO_COUNTS.prisoners; i++) {
      const status = statusFor(i);
      const record = demoPrisoner(random, status, today);
      if (status === 'On Trial' || status === 'Incarcerated') {
        const gender = record.gender ?? 'Male';
        const cellId = placeFor(gender);
        if (cellId) {
          record.cell_id = cellId;
          freePlaces.set(cellId, freePlaces.get(cellId)! - 1);
          cellSex.set(cellId, gender);
          if (gender === 'Other') {
            freePlaces.set(cellId, 0); // alone in the cell
            record.override_reason = 'Single cell after a placement review';
          }
        }
      }
      if (!isCountryName(record.national_id!))
        throw new Error(`demo seed: ${record.national_id} is not in the country list`);
      const created = await createPrisoner(tx, SEED_ACTOR, record);
      prisonerNames.push(`${created.first_name} ${created.last_name}`);
      if (created.cell_id) placed.push({ id: created.prisoner_id, block: blockOf.get(created.cell_id)! });
    }

    // Two keep-apart pairs, each of two prisoners held in different blocks.
    for (const [reason, scope, comment] of DEMO_KEEP_APART) {
      const a = placed.shift();
      const b = a && placed.find((p) => p.block !== a.block);
      if (!a || !b) break;
      placed.splice(placed.indexOf(b), 1);
      await createPair(tx, SEED_ACTOR, { prisoner_a: a.id, prisoner_b: b.id, reason, scope, comment });
    }

    const guardNames: string[] = [];
    for (const member of demoStaff(random)) {
      const created = await createStaffMember(tx, SEED_ACTOR, member);
      if (created.role === 'Guard') guardNames.push(`${created.first_name} ${created.last_name}`);
    }

    for (const incident of demoIncidents(prisonerNames, guardNames, today)) {
      await createIncident(tx, SEED_ACTOR, incident);
    }
    return { seeded: true };
  });
}
