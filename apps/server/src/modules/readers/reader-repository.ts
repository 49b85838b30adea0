// Readers in the database: register (the secret answered once, audited), list with their state, a new secret and
// remove (audited),
// and the activity written from memory every few seconds.
import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import type { Reader, ReaderCreated, ReaderFormat, ReaderInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, readers } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { hashSecret } from '../../tracking/device-registry';
import type { ReaderActivity, ReaderPlace } from './reader-registry';

type ReaderRow = typeof readers.$inferSelect;

export function toReader(row: ReaderRow): Reader {
  return {
    id: row.id,
    name: row.name,
    lat: row.latitude,
    lng: row.longitude,
    radius_m: row.radiusM,
    block_id: row.blockId,
    cell_id: row.cellId,
    format: row.format as ReaderFormat,
    state: row.silentAlertId === null ? 'reporting' : 'silent',
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    refused_count: row.refusedCount,
    created_at: row.createdAt.toISOString(),
  };
}

export function toPlace(row: ReaderRow): ReaderPlace {
  return { id: row.id, name: row.name, latitude: row.latitude, longitude: row.longitude, radiusM: row.radiusM, secretHash: row.secretHash, format: row.format as ReaderFormat };
}

export async function listReaderRows(db: DbOrTx): Promise<ReaderRow[]> {
  return db.select().from(readers).orderBy(asc(readers.name), asc(readers.id));
}

/** 32 random bytes, URL-safe, as a device secret: typed into the reader's configuration once. */
const newReaderSecret = () => randomBytes(32).toString('base64url');

export async function registerReader(db: DbOrTx, who: AuditActor, input: ReaderInput): Promise<{ created: ReaderCreated; row: ReaderRow }> {
  const secret = newReaderSecret();
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: readers.id }).from(readers).where(eq(readers.id, input.id));
    if (existing) throw conflict(`A reader with id ${input.id} already exists`);
    if (input.cell_id) {
      const [cell] = await tx.select({ id: cells.cellId }).from(cells).where(eq(cells.cellId, input.cell_id));
      if (!cell) throw badRequest(`cell_id: cell ${input.cell_id} not found`);
    }
    const [row] = await tx
      .insert(readers)
      .values({
        id: input.id,
        name: input.name,
        latitude: input.lat,
        longitude: input.lng,
        radiusM: input.radius_m,
        blockId: input.block_id ?? null,
        cellId: input.cell_id ?? null,
        format: input.format ?? 'prison',
        secretHash: hashSecret(secret),
      })
      .returning();
    const reader = toReader(row!);
    // The secret itself never reaches the audit trail.
    await recordAudit(tx, who, { action: 'create', entity: 'reader', entityId: reader.id, after: reader });
    return { created: { ...reader, secret }, row: row! };
  });
}

/** A new secret for a reader (one leaked, or a reader replaced): the old one is refused from now on. */
export async function rotateReaderSecret(db: DbOrTx, who: AuditActor, id: string): Promise<{ created: ReaderCreated; row: ReaderRow }> {
  const secret = newReaderSecret();
  return db.transaction(async (tx) => {
    const [row] = await tx.update(readers).set({ secretHash: hashSecret(secret) }).where(eq(readers.id, id)).returning();
    if (!row) throw notFound(`Reader ${id} not found`);
    // The secret itself never reaches the audit trail.
    await recordAudit(tx, who, { action: 'rotate-secret', entity: 'reader', entityId: id });
    return { created: { ...toReader(row), secret }, row };
  });
}

export async function removeReader(db: DbOrTx, who: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(readers).where(eq(readers.id, id)).returning();
    if (!row) throw notFound(`Reader ${id} not found`);
    await recordAudit(tx, who, { action: 'delete', entity: 'reader', entityId: id, before: toReader(row) });
  });
}

/** One statement for every reader heard or refused since the last write. */
export async function writeActivity(db: DbOrTx, activity: ReaderActivity): Promise<void> {
  const ids = [...new Set([...activity.seen.keys(), ...activity.refused.keys()])];
  if (ids.length === 0) return;
  const seen = ids.map((id) => activity.seen.get(id)?.toISOString() ?? null);
  const refused = ids.map((id) => activity.refused.get(id) ?? 0);
  await db.execute(sql`
    update readers r set
      last_seen_at = greatest(r.last_seen_at, a.seen),
      refused_count = r.refused_count + a.refused
    from unnest(${sql.param(ids)}::text[], ${sql.param(seen)}::timestamptz[], ${sql.param(refused)}::int[]) as a(id, seen, refused)
    where r.id = a.id`);
}
