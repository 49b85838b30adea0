// Silence and timers: a device silent longer than DEVICE_OFFLINE_SECONDS goes offline, with a Warning alert once the
// silence outlasts OFFLINE_GRACE_SECONDS too, and the engine's dwell and schedule timers and the escorts' separation
// timers fire, on one process or in a cluster.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { devices } from '../../db/schema';
import type { TrackedDevice } from '../device-registry';
import type { TrackingContext } from './context';
import { collectEscortEvents, collectTransitions, offlineDraft, tickEngine, type AlertDraft, type GeofenceEvent } from './evaluate';
import { claimPairAlerts } from './pair-claims';
import { tickFixRules } from '../fix-rules';
import { applyGeofenceEvents, writeRuleOutcomes } from './persist';
import { announceAlerts, publishOffline, ruleOutcomesCommitted } from './publish';
import { adoptOrphans, writeRevisions } from './takeover';

/**
 * The offline alerts due at `now`: a device gone offline raises its alert only once its silence outlasts the grace
 * (OFFLINE_GRACE_SECONDS); one back online before that raises nothing.
 */
function dueOfflineDrafts(ctx: TrackingContext, silent: TrackedDevice[], now: Date): AlertDraft[] {
  const goingOffline = new Set(silent);
  for (const device of silent) ctx.offlineAlertsDue.set(device.id, device.lastSeenAt! + ctx.offlineMs + ctx.offlineGraceMs);
  const drafts: AlertDraft[] = [];
  for (const [id, dueAt] of ctx.offlineAlertsDue) {
    const device = ctx.registry.get(id);
    if (!device || (device.online && !goingOffline.has(device))) ctx.offlineAlertsDue.delete(id);
    else if (now.getTime() >= dueAt) {
      ctx.offlineAlertsDue.delete(id);
      drafts.push(offlineDraft(device, now));
    }
  }
  return drafts;
}

/** One tick: silent devices go offline (`userDisconnected`), their alerts come after the grace, and the timers fire. */
export async function markSilentDevices(ctx: TrackingContext, now: Date): Promise<void> {
  if (ctx.options.cluster?.enabled) return tickClustered(ctx, now);
  const silent: TrackedDevice[] = [];
  for (const device of ctx.registry.all()) {
    if (device.online && device.lastSeenAt !== null && now.getTime() - device.lastSeenAt > ctx.offlineMs) silent.push(device);
  }
  const drafts = dueOfflineDrafts(ctx, silent, now);
  const events: GeofenceEvent[] = [];
  // Escorts before the engine: a separation that fails now lets a held-back perimeter violation start in this tick.
  collectEscortEvents(ctx, ctx.options.escorts?.tick(now) ?? [], drafts, []);
  for (const { deviceId, transitions } of tickEngine(ctx, now)) {
    const device = ctx.registry.get(deviceId);
    if (device) collectTransitions(device, transitions, drafts, events, ctx.options.zoneEntriesNeedAction);
  }
  const ruleOutcomes = tickFixRules(ctx.options.fixRules ?? [], now);
  if (silent.length === 0 && drafts.length === 0 && events.length === 0 && ruleOutcomes.length === 0) return;
  const stored = await ctx.options.db.transaction(async (tx) => {
    await writeRuleOutcomes(ctx, tx, ruleOutcomes, drafts);
    if (silent.length) {
      await tx
        .update(devices)
        .set({ online: false })
        .where(inArray(devices.id, silent.map((d) => d.id)));
    }
    const saved = await ctx.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert));
    await applyGeofenceEvents(tx, ctx.options.alertStore, events, saved);
    return saved;
  });
  for (const device of silent) {
    device.online = false;
    if (device.prisonerId !== null) ctx.options.keepApart?.forget(device.prisonerId);
    ctx.live.left(device.id);
  }
  publishOffline(ctx, silent.map((d) => d.id));
  ruleOutcomesCommitted(ruleOutcomes);
  announceAlerts(ctx, stored, drafts);
}

/**
 * Cluster mode (decision 036): the offline watcher runs on the leader only, from the database (where every process
 * writes when it last heard each device). Dwell and schedule timers and escort separations run on every process,
 * for the devices whose state it holds: a device's transition is taken only under its row lock and only if no other
 * process has written the device since (its revision); an alert about two trackers goes through the pair's flag.
 */
async function tickClustered(ctx: TrackingContext, now: Date): Promise<void> {
  if (ctx.options.cluster!.isLeader()) {
    if (now.getTime() - ctx.startedAt > ctx.offlineMs) await markOfflineAsLeader(ctx, now);
    await adoptOrphans(ctx);
  }
  const drafts: AlertDraft[] = [];
  collectEscortEvents(ctx, ctx.options.escorts?.tick(now) ?? [], drafts, []);
  const ticked = tickEngine(ctx, now);
  // Every process ticks the rules; each rule's write claims what it raises, so one process raises it (decision 064).
  const ruleOutcomes = tickFixRules(ctx.options.fixRules ?? [], now);
  if (drafts.length === 0 && ticked.length === 0 && ruleOutcomes.length === 0) return;
  const result = await ctx.options.db.transaction(async (tx) => {
    await writeRuleOutcomes(ctx, tx, ruleOutcomes, drafts);
    const ids = ticked.map((t) => t.deviceId).filter((id) => ctx.registry.get(id)).sort();
    const rows = ids.length ? await tx.select({ id: devices.id, revision: devices.revision }).from(devices).where(inArray(devices.id, ids)).orderBy(devices.id).for('update') : [];
    const current = rows.filter((row) => ctx.registry.get(row.id)?.revision === row.revision).map((row) => ctx.registry.get(row.id)!);
    const currentById = new Map(current.map((device) => [device.id, device]));
    const events: GeofenceEvent[] = [];
    for (const { deviceId, transitions } of ticked) {
      const device = currentById.get(deviceId);
      if (device) collectTransitions(device, transitions, drafts, events, ctx.options.zoneEntriesNeedAction);
    }
    const claimed = await claimPairAlerts(tx, drafts, events);
    const saved = await ctx.options.alertStore.insertAlerts(tx, claimed.drafts.map((d) => d.alert));
    await applyGeofenceEvents(tx, ctx.options.alertStore, claimed.events, saved);
    await writeRevisions(ctx, tx, current);
    return { stored: saved, drafts: claimed.drafts };
  });
  ruleOutcomesCommitted(ruleOutcomes);
  announceAlerts(ctx, result.stored, result.drafts);
}

/**
 * The leader: devices silent longer than DEVICE_OFFLINE_SECONDS plus the grace by the database's record go offline
 * with their alert, once. Mark and alert together: a grace kept in one process's memory would be lost with its lead.
 */
async function markOfflineAsLeader(ctx: TrackingContext, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - ctx.offlineMs - ctx.offlineGraceMs);
  const result = await ctx.options.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.online, true), lt(devices.lastSeenAt, cutoff)))
      .orderBy(devices.id)
      .for('update');
    if (rows.length === 0) return null;
    const ids = rows.map((row) => row.id);
    // The revision moves: the process that takes the device's next fix reads it as offline and ends the alert.
    await tx
      .update(devices)
      .set({ online: false, revision: sql`${devices.revision} + 1` })
      .where(inArray(devices.id, ids));
    const silent = ids.map((id) => ctx.registry.get(id)).filter((d): d is TrackedDevice => !!d);
    const drafts = silent.map((d) => offlineDraft(d, now));
    return { ids, drafts, stored: await ctx.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert)) };
  });
  if (!result) return;
  await ctx.options.cluster!.changes.publish('devices-offline', { ids: result.ids });
  publishOffline(ctx, result.ids);
  announceAlerts(ctx, result.stored, result.drafts);
}
