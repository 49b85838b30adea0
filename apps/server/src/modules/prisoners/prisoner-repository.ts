// Reading prisoners as the API shows them: joined with their cell's block and their tracking device's name.
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Prisoner, PrisonerListQuery } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, devices, prisoners } from '../../db/schema';
import { containsPattern, startsWithPattern } from '../../lib/like-patterns';
import { ShortLivedCache } from '../../lib/short-lived-cache';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const prisonerColumns = {
  prisoner_id: prisoners.prisonerId,
  first_name: prisoners.firstName,
  last_name: prisoners.lastName,
  date_of_birth: prisoners.dateOfBirth,
  gender: prisoners.gender,
  national_id: prisoners.nationalId,
  entry_date: prisoners.entryDate,
  release_date: prisoners.releaseDate,
  status: prisoners.status,
  cell_id: prisoners.cellId,
  cell_block: cells.block,
  behavior_record: prisoners.behaviorRecord,
  medical_history: prisoners.medicalHistory,
  tracking_device_id: prisoners.trackingDeviceId,
  tracking_device_name: devices.name,
  created_at: prisoners.createdAt,
  updated_at: prisoners.updatedAt,
};

type PrisonerRow = Omit<Prisoner, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

function toPrisoner(row: PrisonerRow): Prisoner {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

function selectPrisoners(db: DbOrTx) {
  return db
    .select(prisonerColumns)
    .from(prisoners)
    .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
    .leftJoin(devices, eq(devices.id, prisoners.trackingDeviceId));
}

export async function findPrisoner(db: DbOrTx, prisonerId: number): Promise<Prisoner | null> {
  const [row] = await selectPrisoners(db).where(eq(prisoners.prisonerId, prisonerId));
  return row ? toPrisoner(row) : null;
}

/** Case-insensitive "starts with", written so the lower(name) text_pattern_ops indexes serve it. */
const startsWith = (column: AnyPgColumn, text: string) =>
  sql`lower(${column}) like ${startsWithPattern(text.toLowerCase())}`;

function listConditions(query: PrisonerListQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const anyField = [
      ilike(prisoners.firstName, pattern),
      ilike(prisoners.lastName, pattern),
      ilike(prisoners.nationalId, pattern),
      ilike(prisoners.cellId, pattern),
      // "Ann Smith" finds the prisoner by full name too.
      ilike(sql`${prisoners.firstName} || ' ' || ${prisoners.lastName}`, pattern),
    ];
    if (/^\d{1,9}$/.test(query.q)) anyField.push(eq(prisoners.prisonerId, Number(query.q)));
    conditions.push(or(...anyField)!);
  }
  // Name filters match from the start of the name ("Smi" finds Smith), as a roll-call list is read.
  if (query.first_name) conditions.push(startsWith(prisoners.firstName, query.first_name));
  if (query.last_name) conditions.push(startsWith(prisoners.lastName, query.last_name));
  if (query.status) conditions.push(eq(prisoners.status, query.status));
  return conditions.length ? and(...conditions) : undefined;
}

const newestFirst = [desc(prisoners.createdAt), desc(prisoners.prisonerId)];

/**
 * List totals, cached per filter: counting 100,000 rows on every page view costs more than the page itself.
 * Every prisoner write in this process invalidates them after its commit (see ShortLivedCache for the guarantees).
 */
const totals = new ShortLivedCache<number>(2_000);

export function prisonersChanged(): void {
  totals.invalidate();
}

function countPrisoners(db: DbOrTx, query: PrisonerListQuery, where: SQL | undefined): Promise<number> {
  const key = JSON.stringify([query.q ?? '', query.first_name ?? '', query.last_name ?? '', query.status ?? '']);
  return totals.get(key, async () => {
    const [counted] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(prisoners)
      .where(where);
    return Number(counted?.n ?? 0);
  });
}

/**
 * One page, newest first with a stable tie-break, and the total matching the same conditions.
 * The page's ids are chosen on the prisoners table alone (an index walk), and only those 20 rows are joined:
 * joining before the OFFSET would join every skipped row of a deep page.
 */
export async function listPrisoners(db: DbOrTx, query: PrisonerListQuery) {
  const where = listConditions(query);
  const page = db
    .select({ id: prisoners.prisonerId })
    .from(prisoners)
    .where(where)
    .orderBy(...newestFirst)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .as('page');
  const [rows, total] = await Promise.all([
    selectPrisoners(db)
      .innerJoin(page, eq(page.id, prisoners.prisonerId))
      .orderBy(...newestFirst),
    countPrisoners(db, query, where),
  ]);
  return { prisoners: rows.map(toPrisoner), total };
}
