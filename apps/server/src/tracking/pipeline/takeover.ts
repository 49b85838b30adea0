// Takeover (cluster mode, decision 036): a device's state moves between processes through its row. A writer locks the
// rows of its batch's devices and takes the stored state of any another process wrote since (its revision moved);
// it writes the new revision and the engine's memory back; the leader adopts the devices of an instance that is gone.
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

/** Locks the devices' rows (in id order, so writers never deadlock); a device another process wrote since takes the stored state. */
export async function adoptLockedState(ctx: TrackingContext, tx: Tx, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx
    .select({ ...liveColumns, engineState: devices.engineState })
    .from(devices)
    .where(inArray(devices.id, ids))
    .orderBy(devices.id)
    .for('update');
  for (const row of rows) {
    const device = ctx.registry.get(row.id);
    if (device && device.revision !== row.revision) takeOver(ctx, device, row, now.getTime());
  }
}

/** The devices' new revision and engine memory, for the next process that takes one of their fixes. */
export async function writeRevisions(ctx: TrackingContext, tx: Tx, states: TrackedDevice[]): Promise<void> {
  if (states.length === 0) return;
  const engine = ctx.options.engine();
  for (const device of states) device.revision += 1;
  const portable = states.map((d) => {
    const exported = engine?.exportDevice(d.id) ?? null;
    return exported ? JSON.stringify(exported) : null;
  });
  await tx.execute(sql`
    update devices as d set revision = v.rev, engine_state = v.state::jsonb, engine_node = ${ctx.options.cluster?.instance ?? null}
    from unnest(${sql.param(states.map((d) => d.id))}::text[], ${sql.param(states.map((d) => d.revision))}::int[], ${sql.param(portable)}::text[]) as v(id, rev, state)
    where d.id = v.id`);
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
