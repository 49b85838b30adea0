// Takeover (cluster mode, decisions 036 and 047): a device's state moves between processes through its row. A process
// starts from the stored engine memory; a writer checks its batch's devices' revisions (in its one statement, or under
// the row locks) and takes the stored state of any another process wrote since; it writes the new revision and the
// engine's memory back; the leader adopts the devices of an instance that is gone.
import { and, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { devices } from '../../db/schema';
import { liveColumns, liveState, type LockedDeviceRow, type TrackedDevice } from '../device-registry';
import type { PortableDevice } from '../geofence-engine';
import type { TrackingContext } from './context';

/** This process's memory of a device becomes the stored one: live state, revision and the engine's memory. */
function takeOver(ctx: TrackingContext, device: TrackedDevice, row: LockedDeviceRow & { engineState: unknown }, now: number): void {
  Object.assign(device, liveState(row, now));
  ctx.options.engine()?.importDevice(row.id, row.engineState as PortableDevice | null);
}

/**
 * At start: the engine takes each device's stored memory, at the revision the registry just read with the live state,
 * so a device's first fix here needs no takeover (decision 047). A device written between the two reads keeps
 * revision -1: its first fix here takes the whole stored state under the lock.
 */
export async function importStoredEngines(ctx: TrackingContext): Promise<void> {
  const engine = ctx.options.engine();
  const rows = await ctx.options.db.select({ id: devices.id, revision: devices.revision, engineState: devices.engineState }).from(devices);
  const current = new Map(rows.map((row) => [row.id, row]));
  for (const device of ctx.registry.all()) {
    const row = current.get(device.id);
    if (!engine || !row || row.revision !== device.revision) {
      device.revision = -1;
      continue;
    }
    engine.importDevice(device.id, row.engineState as PortableDevice | null);
  }
}

/**
 * Locks the devices' rows (in id order, so writers never deadlock) and answers those another process wrote since (the
 * stored revision moved). Only the id and revision are read: the full state only of the stale ones (`adoptStoredState`).
 */
export async function lockDevices(ctx: TrackingContext, tx: Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.select({ id: devices.id, revision: devices.revision }).from(devices).where(inArray(devices.id, ids)).orderBy(devices.id).for('update');
  return rows.filter((row) => ctx.registry.get(row.id)?.revision !== row.revision).map((row) => row.id);
}

/** Under the row locks: the stale devices take the stored state (live state, revision, the engine's memory). */
export async function adoptStoredState(ctx: TrackingContext, tx: Tx, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx
    .select({ ...liveColumns, engineState: devices.engineState })
    .from(devices)
    .where(inArray(devices.id, ids));
  for (const row of rows) {
    const device = ctx.registry.get(row.id);
    if (device) takeOver(ctx, device, row, now.getTime());
  }
}

/** The engine's memory of each device, as written to `devices.engine_state` (null: never evaluated). */
export function engineMemories(ctx: TrackingContext, states: TrackedDevice[]): (object | null)[] {
  const engine = ctx.options.engine();
  return states.map((d) => engine?.exportDevice(d.id) ?? null);
}

/**
 * The devices' new revision and engine memory, for the next process that takes one of their fixes. The memories
 * travel inside one JSON parameter, as in the batch's guarded statement (decision 079); the ids again as an array
 * lead PostgreSQL to the devices' key (decision 077).
 */
export async function writeRevisions(ctx: TrackingContext, tx: Tx, states: TrackedDevice[]): Promise<void> {
  if (states.length === 0) return;
  for (const device of states) device.revision += 1;
  const memories = engineMemories(ctx, states);
  const json = JSON.stringify(states.map((d, i) => ({ id: d.id, rev: d.revision, memory: memories[i] })));
  await tx.execute(sql`
    update devices as d set revision = v.rev, engine_state = v.memory, engine_node = ${ctx.options.cluster?.instance ?? null}
    from json_to_recordset(${json}::json) as v(id text, rev int, memory jsonb)
    where d.id = any(${sql.param(states.map((d) => d.id))}::text[]) and d.id = v.id`);
}

/**
 * The leader: devices whose state was last written by a process instance that is gone (killed, or restarted as a new
 * instance) are taken over here, so their timers (a dwell running out, a schedule window closing) still fire, within
 * one tick of the loss. Under the row lock and only at the revision read, so a device another process has just
 * written stays with it.
 */
export async function adoptOrphans(ctx: TrackingContext): Promise<void> {
  const cluster = ctx.options.cluster!;
  const alive = await cluster.liveInstances();
  if (!alive.includes(cluster.instance)) return; // this process's own marker connection is down: judge nothing
  const now = Date.now();
  await ctx.options.db.transaction(async (tx) => {
    const rows = await tx
      .select({ ...liveColumns, engineState: devices.engineState })
      .from(devices)
      .where(and(isNotNull(devices.engineNode), notInArray(devices.engineNode, alive)))
      .orderBy(devices.id)
      .for('update', { skipLocked: true });
    if (rows.length === 0) return;
    const adopted: string[] = [];
    for (const row of rows) {
      const device = ctx.registry.get(row.id);
      if (!device) continue;
      takeOver(ctx, device, row, now);
      adopted.push(row.id);
    }
    if (adopted.length) await tx.update(devices).set({ engineNode: cluster.instance }).where(inArray(devices.id, adopted));
    ctx.options.log.info({ devices: adopted.length }, 'adopted the devices of a process instance that is gone');
  });
}
