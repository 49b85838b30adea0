// The three investigation questions (decision 068): everyone at a moment, who was near a person or a
// place, and the contacts of a pair. Reads only; each question is audited by its route.
import { sql } from 'drizzle-orm';
import {
  NEAR_MATCH_SECONDS,
  type ContactsQuery,
  type ContactsResponse,
  type NearQuery,
  type NearResponse,
  type PersonRef,
  type SnapshotResponse,
} from '@prison/shared';
import type { Database, DbOrTx } from '../../db/client';
import { prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { notFound } from '../../lib/http-errors';
import { withinBudget } from '../../lib/query-budget';
import { lastFixesAt, peopleNames, peopleNearInProbes, personTrack } from './investigations-repository';
import { contactsOf, type PersonNear, type TrackFix } from './near-matching';
import { probesAlong, probesFor } from './near-probes';

const MATCH_MS = NEAR_MATCH_SECONDS * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `iso` for many instants close together (a snapshot's 10,000 fixes lie within a minute or two): each whole second's
 * text is made once and the milliseconds appended, the same text for whole milliseconds at a fraction of the cost.
 */
export function isoOfMany(): (ms: number) => string {
  const seconds = new Map<number, string>();
  return (ms) => {
    const second = Math.floor(ms / 1000);
    let text = seconds.get(second);
    if (text === undefined) {
      text = iso(second * 1000).slice(0, -5); // without ".000Z"
      seconds.set(second, text);
    }
    return `${text}.${String(ms - second * 1000).padStart(3, '0')}Z`;
  };
}
/** Distances to the centimetre: GPS says no more. */
const metres = (value: number) => Math.round(value * 100) / 100;

/** The person exists and, a prisoner, is in the caseload; else the 404 an unknown id gets (decision 051). */
export async function requirePerson(db: DbOrTx, person: PersonRef, blocks: Caseload): Promise<void> {
  const statement =
    person.kind === 'prisoner'
      ? sql`select 1 from prisoners where prisoner_id = ${person.id} and ${prisonerInCaseloadOrTrue(sql.raw('prisoner_id'), blocks)}`
      : sql`select 1 from staff where staff_id = ${person.id}`;
  const result = (await db.execute(statement)) as unknown as { rows: unknown[] };
  if (result.rows.length === 0) {
    throw notFound(person.kind === 'prisoner' ? `No prisoner with id ${person.id}` : `No staff member with id ${person.id}`);
  }
}

/** The subject of a near question as a person, or null for a place. */
export function nearSubject(query: NearQuery): PersonRef | null {
  if (query.prisoner_id !== undefined) return { kind: 'prisoner', id: query.prisoner_id };
  if (query.staff_id !== undefined) return { kind: 'staff', id: query.staff_id };
  return null;
}

/** What to narrow when a question is too large to answer in time. */
const NARROW_WINDOW = 'narrow the window (from, to) or the radius (radius_m)';
/**
 * On PGlite (which works in the server's own thread) a near question is asked an hour of the window at a time, so no
 * one statement holds every other request for long; PostgreSQL answers the whole window in one statement.
 */
export const IN_THREAD_SLICE_MS = 3_600_000;

/** [from, to] cut into consecutive inclusive pieces of at most `length` milliseconds. */
export function windowSlices(from: number, to: number, length: number): [number, number][] {
  const slices: [number, number][] = [];
  for (let start = from; start <= to; start += length) slices.push([start, Math.min(start + length - 1, to)]);
  return slices;
}

/** Adds one slice's people to those of the slices before (older): the earlier fix wins a tie for the closest. */
function mergePeople(people: Map<string, PersonNear>, found: readonly PersonNear[]): void {
  for (const next of found) {
    const key = next.prisonerId !== null ? `p${next.prisonerId}` : `s${next.staffId}`;
    const person = people.get(key);
    if (!person) {
      people.set(key, { ...next });
      continue;
    }
    person.firstAt = Math.min(person.firstAt, next.firstAt);
    person.lastAt = Math.max(person.lastAt, next.lastAt);
    person.fixes += next.fixes;
    if (next.minDistanceM < person.minDistanceM) {
      person.minDistanceM = next.minDistanceM;
      person.closest = next.closest;
    }
  }
}

const personOrder = (p: PersonNear) => (p.prisonerId !== null ? p.prisonerId : -1 - p.staffId!);

/** The people near the subject, matched in the database, the nearest first (then the earliest). */
async function peopleNearSubject(
  db: DbOrTx,
  query: NearQuery,
  person: PersonRef | null,
  track: readonly TrackFix[] | null,
  blocks: Caseload,
  budget: { inThisThread: boolean; slice(): Promise<void> },
): Promise<PersonNear[]> {
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  const people = new Map<string, PersonNear>();
  const slices = budget.inThisThread ? windowSlices(from, to, IN_THREAD_SLICE_MS) : windowSlices(from, to, to - from + 1);
  for (const [sliceFrom, sliceTo] of slices) {
    const probes = track
      ? await probesAlong(
          track.filter((f) => f.t >= sliceFrom - MATCH_MS && f.t <= sliceTo + MATCH_MS),
          query.radius_m,
          sliceFrom,
          sliceTo,
          () => budget.slice(),
        )
      : probesFor({ lat: query.lat!, lng: query.lng! }, query.radius_m, sliceFrom, sliceTo);
    const subject = { person, lat: query.lat, lng: query.lng };
    mergePeople(people, await peopleNearInProbes(db, probes, subject, query.radius_m, blocks));
    await budget.slice();
  }
  return [...people.values()].sort((x, y) => x.minDistanceM - y.minDistanceM || x.firstAt - y.firstAt || personOrder(x) - personOrder(y));
}

/**
 * Who was near a person or a place: matched in the database, within `timeoutMs` (past it, 400 asking for a narrower
 * window or radius).
 */
export async function whoWasNear(database: Database, query: NearQuery, blocks: Caseload, timeoutMs: number): Promise<NearResponse> {
  return withinBudget(database, timeoutMs, { field: 'to', narrow: NARROW_WINDOW }, (db, budget) => nearAnswer(db, query, blocks, budget));
}

async function nearAnswer(db: DbOrTx, query: NearQuery, blocks: Caseload, budget: { inThisThread: boolean; slice(): Promise<void> }): Promise<NearResponse> {
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  const person = nearSubject(query);
  if (person) await requirePerson(db, person, blocks);
  // A person's fixes just outside the window still meet the others' fixes just inside it.
  const track = person ? await personTrack(db, person, from - MATCH_MS, to + MATCH_MS) : null;
  const people = await peopleNearSubject(db, query, person, track, blocks, budget);
  const names = await peopleNames(
    db,
    people.flatMap((p) => (p.prisonerId !== null ? [p.prisonerId] : [])),
    people.flatMap((p) => (p.staffId !== null ? [p.staffId] : [])),
  );
  return {
    data: people.map((p) => {
      const key = p.prisonerId !== null ? `prisoner:${p.prisonerId}` : `staff:${p.staffId}`;
      return {
        prisoner_id: p.prisonerId,
        staff_id: p.staffId,
        name: names.get(key)?.name ?? key,
        prison_number: names.get(key)?.prisonNumber ?? null,
        first_at: iso(p.firstAt),
        last_at: iso(p.lastAt),
        min_distance_m: metres(p.minDistanceM),
        fixes: p.fixes,
        closest: { at: iso(p.closest.t), latitude: p.closest.lat, longitude: p.closest.lng },
      };
    }),
    subject_track: (track ?? []).filter((f) => f.t >= from && f.t <= to).map((f) => ({ t: iso(f.t), lat: f.lat, lng: f.lng })),
  };
}

/** The contacts of a pair, within `timeoutMs` (past it, 400 asking for a narrower window). */
export async function contactsOfPair(database: Database, query: ContactsQuery, blocks: Caseload, timeoutMs: number): Promise<ContactsResponse> {
  return withinBudget(database, timeoutMs, { field: 'to', narrow: 'narrow the window (from, to)' }, (db) => contactsAnswer(db, query, blocks));
}

async function contactsAnswer(db: DbOrTx, query: ContactsQuery, blocks: Caseload): Promise<ContactsResponse> {
  await requirePerson(db, query.a, blocks);
  await requirePerson(db, query.b, blocks);
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  const [a, b] = await Promise.all([
    personTrack(db, query.a, from - MATCH_MS, to + MATCH_MS),
    personTrack(db, query.b, from - MATCH_MS, to + MATCH_MS),
  ]);
  return {
    data: contactsOf(a, b, query.radius_m, from, to).map((c) => ({
      start_at: iso(c.startAt),
      end_at: iso(c.endAt),
      min_distance_m: metres(c.minDistanceM),
      fixes: c.fixes,
    })),
  };
}

/** Everyone at a moment, within `timeoutMs` (past it, 400). */
export async function everyoneAt(database: Database, at: string, offlineSeconds: number, blocks: Caseload, timeoutMs: number): Promise<SnapshotResponse> {
  const rows = await withinBudget(database, timeoutMs, { field: 'at', narrow: 'try again later' }, (db) => lastFixesAt(db, Date.parse(at), offlineSeconds, blocks));
  const isoOf = isoOfMany();
  return {
    data: rows.map((r) => ({
      device_id: r.device_id,
      prisoner_id: r.prisoner_id,
      staff_id: r.staff_id,
      latitude: r.latitude,
      longitude: r.longitude,
      at: isoOf(r.t),
    })),
  };
}
