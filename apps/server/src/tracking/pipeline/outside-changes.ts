// Outside changes: what the API or another process changed reaches this process's memory (registry, engine,
// monitors, live map): a device edited or removed, positions another process stored, devices the leader marked offline.
import type { SharedPosition } from '../../cluster';
import { displayName } from '../device-registry';
import type { TrackingContext } from './context';
import { keepApartName } from './evaluate';
import { announceGone } from './publish';

/** `announce`: this process made the change, so it tells the browsers (of every process) a removed device left. */
export async function applyDeviceChange(ctx: TrackingContext, id: string, options: { reassigned?: boolean }, announce: boolean): Promise<void> {
  const before = ctx.registry.get(id);
  // Whose browsers had it: the wearer and block it had before the change (decision 093).
  const shownTo = before ? { prisonerId: before.prisonerId, block: before.block } : undefined;
  const wearer = before?.prisonerId ?? null;
  const device = await ctx.registry.refresh(ctx.options.db, id);
  if (wearer !== null && (options.reassigned || !device)) ctx.options.keepApart?.forget(wearer);
  if (options.reassigned) ctx.options.engine()?.forgetDevice(id);
  if (!device) {
    ctx.options.engine()?.forgetDevice(id);
    ctx.live.left(id);
    if (announce) announceGone(ctx, id, shownTo);
  } else if (device.online) {
    ctx.live.moved(device); // the name on the marker may have changed
  }
}

/**
 * Cluster mode: positions another process stored. They move this process's markers and feed its keep-apart and
 * escort monitors (whose alerts the other process raised, if any); the device's revision is left as it was, so
 * this process takes the full state from the database before it evaluates the device's next fix itself.
 */
export function applySharedPositions(ctx: TrackingContext, positions: SharedPosition[]): void {
  for (const shared of positions) {
    const device = ctx.registry.get(shared.id);
    if (!device || (device.lastFixAt !== null && shared.lastFixAt !== null && shared.lastFixAt < device.lastFixAt)) continue;
    Object.assign(device, {
      lastSeenAt: shared.lastSeenAt,
      lastFixAt: shared.lastFixAt,
      latitude: shared.latitude,
      longitude: shared.longitude,
      battery: shared.battery,
      online: shared.online,
    });
    ctx.live.moved(device);
    if (shared.lastFixAt === null) continue;
    const at = new Date(shared.lastFixAt);
    const position = { deviceId: device.id, name: displayName(device), lat: shared.latitude, lng: shared.longitude, at };
    if (device.prisonerId !== null) {
      ctx.options.keepApart?.update({ ...position, prisonerId: device.prisonerId, name: keepApartName(device) });
      ctx.options.escorts?.updatePrisoner(device.prisonerId, position);
    } else if (device.staffId !== null) {
      ctx.options.escorts?.updateStaff(device.staffId, position);
    }
  }
  // Ends seen here were (or will be) written by the process that took the fixes.
  ctx.options.keepApart?.takeEnded();
}

/**
 * The escort monitor learns the last known position of everyone it watches, from the registry (the stored last fix
 * after a restart): an officer who reported before a restart or before the escort began is known (decision 037).
 */
export function rememberEscortPositions(ctx: TrackingContext): void {
  const escorts = ctx.options.escorts;
  if (!escorts) return;
  for (const device of ctx.registry.all()) {
    if (device.lastFixAt === null || device.latitude === null || device.longitude === null) continue;
    const position = { deviceId: device.id, name: displayName(device), lat: device.latitude, lng: device.longitude, at: new Date(device.lastFixAt) };
    if (device.prisonerId !== null) escorts.rememberPrisoner(device.prisonerId, position);
    else if (device.staffId !== null) escorts.rememberStaff(device.staffId, position);
  }
}

/** Cluster mode: the leader's offline watcher marked these devices offline. */
export function applyOffline(ctx: TrackingContext, ids: string[]): void {
  for (const id of ids) {
    const device = ctx.registry.get(id);
    if (!device) continue;
    device.online = false;
    if (device.prisonerId !== null) ctx.options.keepApart?.forget(device.prisonerId);
    ctx.live.left(id);
  }
}
