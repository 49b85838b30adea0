// Plan: runs a batch of fixes through the devices' state, the engine and the monitors in memory, noting what they
// found in order (evaluate.ts turns it into alerts) and keeping what to put back if the batch is not stored
// (rollback). Nothing is written here; persist.ts stores the plan.
import type { FixOutcome } from '@prison/shared';
import type { positions } from '../../db/schema';
import { displayName, type TrackedDevice } from '../device-registry';
import type { SavedDevice } from '../geofence-engine';
import type { EscortEvent, SavedEscorts } from '../escort-monitor';
import type { SavedKeepApart } from '../keep-apart-monitor';
import type { Fix } from '../fix';
import { runFixRules, type FixRule, type RuleFix, type RuleOutcome } from '../fix-rules';
import type { TrackingContext } from './context';
import { evaluateFix, keepApartName, type AlertDraft, type Finding, type GeofenceEvent } from './evaluate';

export const LOW_BATTERY_PERCENT = 15;
export const BATTERY_REARM_PERCENT = 20;

export type PositionRow = typeof positions.$inferInsert & { recordedAt: Date };

/** A batch of fixes run through the state in memory, with what to put back if it is not stored. */
export interface BatchPlan {
  fixes: Fix[];
  now: Date;
  before: Map<string, TrackedDevice>;
  engineBefore: Map<string, SavedDevice>;
  keepApartBefore: Map<number, SavedKeepApart>;
  escortsBefore: { restore: () => void }[];
  rows: PositionRow[];
  present: boolean[];
  outcomes: FixOutcome[];
  /** What the state changes found, in the order they happened; evaluate.ts makes the drafts and events of it. */
  findings: Finding[];
  drafts: AlertDraft[];
  events: GeofenceEvent[];
  moved: Set<TrackedDevice>;
  cameOnline: Set<string>;
  alarms: { index: number; fix: Fix; device: TrackedDevice; at: Date }[];
  rejoined: EscortEvent[];
  /** Keep-apart meetings that ended in this batch. */
  endedPairs: number[];
  /** What the fix rules decided (decision 064): written in the batch's transaction, told after the commit. */
  ruleOutcomes: RuleOutcome[];
}

/** Runs the fixes through the devices' state, the engine and the monitors, in memory; nothing is written yet. */
export function planBatch(ctx: TrackingContext, fixes: Fix[], now: Date): BatchPlan {
  const engine = ctx.options.engine();
  const keepApart = ctx.options.keepApart;
  const escorts = ctx.options.escorts;
  const savedEscortKeys = new Set<string>();
  const plan: BatchPlan = {
    fixes,
    now,
    before: new Map(),
    engineBefore: new Map(),
    keepApartBefore: new Map(),
    escortsBefore: [],
    rows: [],
    present: [],
    outcomes: [],
    findings: [],
    drafts: [],
    events: [],
    moved: new Set(),
    cameOnline: new Set(),
    alarms: [],
    rejoined: [],
    endedPairs: [],
    ruleOutcomes: [],
  };
  const rules = ctx.options.fixRules ?? [];
  // Per rule, the batch's fixes of the wearers it watches.
  const watched: RuleFix[][] = rules.map(() => []);
  const { before, engineBefore, keepApartBefore, escortsBefore, rows, present, findings, moved, cameOnline, alarms } = plan;

  for (const [index, fix] of fixes.entries()) {
    const found = ctx.registry.get(fix.deviceId);
    // A reader places only tags: a phone's position is what it reports itself (decision 092).
    const device = found && (!fix.fromReader || found.kind === 'tag') ? found : undefined;
    present.push(!!device);
    // Removed between authentication and now (nothing to attach the fix to), or not a reader's to move: refused.
    if (!device) continue;
    if (!before.has(device.id)) before.set(device.id, { ...device });
    rows.push({
      deviceId: device.id,
      prisonerId: device.prisonerId,
      staffId: device.staffId,
      recordedAt: fix.recordedAt,
      receivedAt: now,
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracy: fix.accuracy ?? null,
      speed: fix.speed ?? null,
      bearing: fix.bearing ?? null,
      altitude: fix.altitude ?? null,
      battery: fix.battery ?? null,
    });
    device.lastSeenAt = now.getTime();
    if (!device.online) {
      device.online = true;
      cameOnline.add(device.id);
    }
    // A device clock slightly ahead (within MAX_FUTURE_SECONDS) counts as the receive time: the history keeps the
    // device's own time, but the newest fix, the engine and the alerts never run ahead of the server, so the next
    // real fix is newer again.
    const effective = fix.recordedAt.getTime() > now.getTime() ? now : fix.recordedAt;
    const at = effective.getTime();
    // A fall is for the fix rules (staff in danger), not an alarm alert of its own.
    if (fix.alarm === 'sos' || fix.alarm === 'tamper') alarms.push({ index, fix, device, at: effective });
    // Older than the newest (or the same time): history only, no marker move, no engine.
    if (device.lastFixAt !== null && at <= device.lastFixAt) {
      if (cameOnline.has(device.id)) moved.add(device);
      continue;
    }
    device.lastFixAt = at;
    device.latitude = fix.latitude;
    device.longitude = fix.longitude;
    moved.add(device);
    if (fix.battery != null) {
      device.battery = fix.battery;
      if (fix.battery < LOW_BATTERY_PERCENT && !device.lowBatteryAlerted) {
        device.lowBatteryAlerted = true;
        findings.push({ kind: 'battery', device, battery: fix.battery, at: effective });
      } else if (fix.battery > BATTERY_REARM_PERCENT && device.lowBatteryAlerted) {
        device.lowBatteryAlerted = false;
      }
    }
    // Escorts first, so an escort that fails with this fix no longer holds back the perimeter (decision 035).
    if (escorts && escorts.watches(device.prisonerId, device.staffId)) {
      const person = device.prisonerId !== null ? { kind: 'p', id: device.prisonerId } : { kind: 's', id: device.staffId! };
      const key = `${person.kind}${person.id}`;
      if (!savedEscortKeys.has(key)) {
        savedEscortKeys.add(key);
        if (person.kind === 'p') {
          const saved: SavedEscorts = escorts.savePrisoner(person.id);
          escortsBefore.push({ restore: () => escorts.restorePrisoner(person.id, saved) });
        } else {
          const saved: SavedEscorts = escorts.saveStaff(person.id);
          escortsBefore.push({ restore: () => escorts.restoreStaff(person.id, saved) });
        }
      }
      const position = { deviceId: device.id, name: displayName(device), lat: fix.latitude, lng: fix.longitude, at: effective };
      const happened = person.kind === 'p' ? escorts.updatePrisoner(person.id, position) : escorts.updateStaff(person.id, position);
      if (happened.length) findings.push({ kind: 'escort', events: happened });
    }
    // A staff member's tracker (decision 035) is stored and shown, and judged by no geofence and no keep-apart pair.
    if (engine && device.staffId === null) {
      // Copied before the first evaluation, to put back if this batch is not stored.
      if (!engineBefore.has(device.id)) engineBefore.set(device.id, engine.saveDevice(device.id));
      const transitions = evaluateFix(ctx, engine, device, fix, effective);
      if (transitions.length) findings.push({ kind: 'geofence', device, transitions });
    }
    if (keepApart && device.prisonerId !== null) {
      if (!keepApartBefore.has(device.prisonerId)) keepApartBefore.set(device.prisonerId, keepApart.save(device.prisonerId));
      const meetings = keepApart.update({ prisonerId: device.prisonerId, deviceId: device.id, name: keepApartName(device), lat: fix.latitude, lng: fix.longitude, at: effective });
      if (meetings.length) findings.push({ kind: 'keep-apart', device, meetings, at: effective });
    }
    if (rules.length) offerToRules(ctx, rules, watched, device, fix, effective);
  }
  plan.ruleOutcomes = runFixRules(rules, watched);
  plan.endedPairs = keepApart?.takeEnded() ?? [];
  plan.outcomes = present.map((p) => (p ? 'duplicate' : 'refused'));
  return plan;
}

/** A fix goes to each rule watching its wearer: one lookup per rule; nothing is built for a fix no rule watches. */
function offerToRules(ctx: TrackingContext, rules: readonly FixRule[], watched: RuleFix[][], device: TrackedDevice, fix: Fix, at: Date): void {
  let ruleFix: RuleFix | null = null;
  for (const [i, rule] of rules.entries()) {
    if (!rule.watches(device)) continue;
    ruleFix ??= toRuleFix(ctx, device, fix, at);
    watched[i]!.push(ruleFix);
  }
}

function toRuleFix(ctx: TrackingContext, device: TrackedDevice, fix: Fix, at: Date): RuleFix {
  let inside: ReturnType<RuleFix['inside']> | null = null;
  return {
    deviceId: device.id,
    prisonerId: device.prisonerId,
    staffId: device.staffId,
    name: displayName(device),
    block: device.block,
    lat: fix.latitude,
    lng: fix.longitude,
    at,
    alarm: fix.alarm ?? null,
    inside: () => (inside ??= ctx.options.engine()?.containing?.(fix.latitude, fix.longitude) ?? []),
  };
}

/** The batch's devices, sorted, so concurrent writers (the offline watcher) lock device rows in one order. */
export function touchedDevices(ctx: TrackingContext, plan: BatchPlan): TrackedDevice[] {
  return [...plan.before.keys()]
    .sort()
    .map((id) => ctx.registry.get(id)!)
    .filter(Boolean);
}

/** Marks the fixes the database actually inserted (`device|ms` keys) as stored. */
export function markStored(plan: BatchPlan, fresh: Set<string>): void {
  for (const [index, fix] of plan.fixes.entries()) {
    // The first copy of a fix in this batch is the stored one; later copies are duplicates.
    if (plan.present[index] && fresh.delete(`${fix.deviceId}|${fix.recordedAt.getTime()}`)) plan.outcomes[index] = 'stored';
  }
}

/** Nothing was stored: the devices go back as they were (in the engine and monitors too), so a retry is new. */
export function rollbackPlan(ctx: TrackingContext, plan: BatchPlan): void {
  for (const [id, state] of plan.before) {
    const device = ctx.registry.get(id);
    if (device) Object.assign(device, state);
  }
  const engine = ctx.options.engine();
  if (engine) for (const [id, saved] of plan.engineBefore) engine.restoreDevice(id, saved);
  // Latest first, so a pair touched by both its prisoners ends as it was before the first of them.
  const keepApart = ctx.options.keepApart;
  if (keepApart) for (const [id, saved] of [...plan.keepApartBefore].reverse()) keepApart.restore(id, saved);
  for (const saved of plan.escortsBefore.reverse()) saved.restore();
}
