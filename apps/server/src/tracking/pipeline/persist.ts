// Persist: stores a planned batch (the fixes, the devices' state, the alerts, alarm repeats and the geofence states)
// in one statement when it raises nothing, else in one transaction; and the geofence state changes of a tick.
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { executeNamed } from '../../db/named-statements';
import type { TrackedDevice } from '../device-registry';
import { displayName } from '../device-registry';
import { groupAlarms, recordAlarmRepeats, type AlarmGroup } from '../alarm-repeats';
import type { EscortEvent } from '../escort-monitor';
import type { RuleOutcome } from '../fix-rules';
import type { StoredAlert } from '../ports';
import { nearestStaff, officerNeedsAssistance, withNearestStaff, type NearbyStaff } from '../staff-sos';
import { clustered, type TrackingContext } from './context';
import { draftAlert, type AlertDraft, type GeofenceEvent } from './evaluate';
import { claimPairAlerts, releasePairs } from './pair-claims';
import { markStored, touchedDevices, type BatchPlan, type PositionRow } from './plan';
import { portableStates, writeRevisions } from './takeover';

/** The alerts stored by a batch, and the drafts they came from (in the same order). */
export interface Persisted {
  stored: StoredAlert[];
  drafts: AlertDraft[];
  /** An open alarm alert was updated by a repeat (decision 038): screens refetch, no new toast. */
  repeated?: boolean;
}

/**
 * The fixes as rows of `positions`, passed as one JSON parameter (decision 055): the driver sends one string rather
 * than preparing every element of eleven arrays, and the statement is built from the same few pieces every batch.
 * Times travel as milliseconds since the epoch and PostgreSQL makes them timestamps (`FIX_ROWS`): writing two ISO
 * texts per fix was a visible share of a batch's JavaScript, and a number is cheaper to read for PostgreSQL too
 * (decision 070; exact to the millisecond, as a JS Date is).
 */
function fixColumns(rows: PositionRow[]) {
  const json = JSON.stringify(
    rows.map((r) => ({
      d: r.deviceId,
      p: r.prisonerId ?? null,
      st: r.staffId ?? null,
      t: r.recordedAt.getTime(),
      r: (r.receivedAt as Date).getTime(),
      la: r.latitude,
      lo: r.longitude,
      a: r.accuracy ?? null,
      s: r.speed ?? null,
      b: r.bearing ?? null,
      al: r.altitude ?? null,
      ba: r.battery ?? null,
    })),
  );
  return sql`json_to_recordset(${json}::json) as f(d text, p int, st int, t float8, r float8, la float8, lo float8, a real, s real, b real, al real, ba real)`;
}

/** The fixes' columns in `POSITION_COLUMNS` order, from `fixColumns`' rows `f`. */
const FIX_ROWS = sql`f.d, f.p, f.st, to_timestamp(f.t / 1000), to_timestamp(f.r / 1000), f.la, f.lo, f.a, f.s, f.b, f.al, f.ba`;

/**
 * The devices' live state as one JSON parameter, as `v(id, seen, fix, lat, lng, battery, online, low)` (times in ms).
 * PostgreSQL guesses 100 rows for any JSON set, so the updates that join it also name the ids as an array
 * (`d.id = any(...)`): without it the plan read every device of the table for each batch (decision 077).
 */
function stateColumns(states: TrackedDevice[]) {
  const json = JSON.stringify(
    states.map((d) => ({
      id: d.id,
      seen: d.lastSeenAt,
      fix: d.lastFixAt,
      lat: d.latitude,
      lng: d.longitude,
      battery: d.battery,
      online: d.online,
      low: d.lowBatteryAlerted,
    })),
  );
  return sql`json_to_recordset(${json}::json) as v(id text, seen float8, fix float8, lat float8, lng float8, battery real, online boolean, low boolean)`;
}

const POSITION_COLUMNS = sql`positions (device_id, prisoner_id, staff_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)`;
const STATE_SET = sql`last_seen_at = to_timestamp(v.seen / 1000), last_fix_at = to_timestamp(v.fix / 1000), last_latitude = v.lat, last_longitude = v.lng,
        last_battery = v.battery, online = v.online, low_battery_alerted = v.low`;
type InsertedRow = { device_id: string | null; ms: number | string | null };
const insertedKeys = (rows: InsertedRow[]) => new Set(rows.filter((r) => r.device_id !== null).map((r) => `${r.device_id}|${Number(r.ms)}`));

/**
 * The devices of the batch that came back online: their open offline alerts end (what `endOpenAlerts(..., 'offline')`
 * did as a statement of its own in the batch's transaction), as one more part of the batch's statement, so a batch
 * whose only news is a device reporting again needs no transaction (decision 070). Only ever offline alerts, which no
 * batch of fixes raises, so the order against the batch's new alerts does not matter.
 */
function endOfflineAlerts(online: ReadonlySet<string>, at: Date, guard = sql`true`) {
  if (online.size === 0) return sql``;
  return sql`, back_online as (
      update alerts set ended_at = ${at.toISOString()}::timestamptz
      where device_id = any(${sql.param([...online])}::text[]) and kind = 'offline' and ended_at is null and ${guard}
      returning 1
    )`;
}

/**
 * One statement for the fixes and the device state: a multi-row insert of the fixes (a fix already stored, same
 * device and time, is skipped), an update of the devices they came from, and the end of the offline alerts of those
 * that came back online. Two JSON parameters however many fixes. A single statement is atomic, so a batch that raises
 * nothing needs no explicit transaction. Answers the keys (`device|ms`) of the fixes actually inserted.
 */
export async function writeFixes(db: DbOrTx, rows: PositionRow[], states: TrackedDevice[], cameOnline: ReadonlySet<string>, now: Date): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await executeNamed<InsertedRow>(db, 'write-fixes', sql`
    with inserted as (
      insert into ${POSITION_COLUMNS}
      select ${FIX_ROWS} from ${fixColumns(rows)}
      on conflict (device_id, recorded_at) do nothing
      returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
    ), state as (
      update devices as d set ${STATE_SET}
      from ${stateColumns(states)}
      where d.id = any(${sql.param(states.map((d) => d.id))}::text[]) and d.id = v.id
      returning 1
    )${endOfflineAlerts(cameOnline, now)}
    select device_id, ms from inserted`);
  return insertedKeys(result.rows);
}

/**
 * Cluster mode, a batch that raises nothing (decision 047): the same single statement, which also locks the devices'
 * rows (in id order), checks that no other process wrote any of them since this one last did (the revisions this
 * process holds), and only then stores the fixes, the state, the next revision and the engine's memory. Answers null,
 * having written nothing, when a revision moved: the caller takes the stored state under the lock and plans again.
 */
async function writeFixesAtRevision(ctx: TrackingContext, db: DbOrTx, plan: BatchPlan, states: TrackedDevice[]): Promise<Set<string> | null> {
  const rows = plan.rows;
  const ids = sql.param(states.map((d) => d.id));
  const result = await executeNamed<InsertedRow & { ok: boolean }>(db, 'write-fixes-at-revision', sql`
    with locked as (
      select d.id, d.revision from devices d where d.id = any(${ids}::text[]) order by d.id for update
    ), current as (
      select count(*) = ${states.length} as ok
      from locked l join unnest(${ids}::text[], ${sql.param(states.map((d) => d.revision))}::int[]) as e(id, rev) on e.id = l.id and e.rev = l.revision
    ), inserted as (
      insert into ${POSITION_COLUMNS}
      select ${FIX_ROWS} from ${fixColumns(rows)} where (select ok from current)
      on conflict (device_id, recorded_at) do nothing
      returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
    ), state as (
      update devices as d set ${STATE_SET}, revision = d.revision + 1, engine_state = p.state::jsonb, engine_node = ${ctx.options.cluster?.instance ?? null}
      from ${stateColumns(states)}
      join unnest(${ids}::text[], ${sql.param(portableStates(ctx, states))}::text[]) as p(id, state) on p.id = v.id
      where d.id = any(${ids}::text[]) and d.id = v.id and (select ok from current)
      returning 1
    )${endOfflineAlerts(plan.cameOnline, plan.now, sql`(select ok from current)`)}
    select (select ok from current) as ok, i.device_id, i.ms from (select 1) as one left join inserted i on true`);
  if (!result.rows[0]?.ok) return null;
  for (const device of states) device.revision += 1;
  return insertedKeys(result.rows);
}

interface StateRow {
  deviceId: string;
  geofenceId: string;
  /** true: a violation starts (with its alert); false: it ends, and its open alert records when. */
  violating: boolean;
  at: Date;
  /** null keeps the alert of the violation that just ended. */
  alertId: number | null;
}

/**
 * The geofence state changes of distinct device and geofence pairs, in one statement (decision 070; it was three):
 * for each ending violation its alert records when it ended (read from the states as they were before this
 * statement, as when that ran first), and every pair's state row is written. Joined to geofences: a geofence deleted
 * a moment ago must not fail the fixes of everyone else.
 */
async function writeGeofenceStates(tx: Tx, rows: StateRow[]): Promise<void> {
  if (rows.length === 0) return;
  // One JSON parameter, as the fixes, so the named statement keeps one generic plan (arrays of each batch's length
  // had it planned again every time); the ids again as arrays lead PostgreSQL to the indexes, as in `stateColumns`.
  const json = JSON.stringify(rows.map((r) => ({ d: r.deviceId, g: r.geofenceId, violating: r.violating, s: r.at.getTime(), a: r.alertId })));
  const deviceIds = sql.param([...new Set(rows.map((r) => r.deviceId))]);
  const geofenceIds = sql.param([...new Set(rows.map((r) => r.geofenceId))]);
  await executeNamed(tx, 'write-geofence-states', sql`
    with v as (
      select j.d, j.g, j.violating, to_timestamp(j.s / 1000) as s, j.a
      from json_to_recordset(${json}::json) as j(d text, g text, violating boolean, s float8, a int)
    ), ended as (
      update alerts as a set ended_at = v.s
      from v join geofence_states s on s.device_id = v.d and s.geofence_id = v.g
      where s.device_id = any(${deviceIds}::text[]) and not v.violating and a.id = s.alert_id and a.ended_at is null
    )
    insert into geofence_states (device_id, geofence_id, violating, since, alert_id)
    select v.d, v.g, v.violating, v.s, v.a from v join geofences f on f.geofence_id = v.g
    where f.geofence_id = any(${geofenceIds}::text[])
    on conflict (device_id, geofence_id) do update
      set violating = excluded.violating, since = excluded.since, alert_id = coalesce(excluded.alert_id, geofence_states.alert_id)`);
}

/**
 * Keeps geofence_states (so a restart does not re-raise a running violation) and closes ended alerts. Pairs of
 * device and geofence with one event in the batch (nearly all) are written in one statement whatever their number;
 * a pair with several events (in and out within one batch) is applied event by event, in order.
 */
export async function applyGeofenceEvents(tx: Tx, events: GeofenceEvent[], saved: StoredAlert[]): Promise<void> {
  if (events.length === 0) return;
  const pair = (e: GeofenceEvent) => `${e.deviceId}|${e.geofenceId}`;
  const perPair = new Map<string, number>();
  for (const e of events) perPair.set(pair(e), (perPair.get(pair(e)) ?? 0) + 1);
  const row = (e: GeofenceEvent): StateRow =>
    e.kind === 'start'
      ? { deviceId: e.deviceId, geofenceId: e.geofenceId, violating: true, at: e.at, alertId: saved[e.draft]!.id }
      : { deviceId: e.deviceId, geofenceId: e.geofenceId, violating: false, at: e.at, alertId: null };
  await writeGeofenceStates(tx, events.filter((e) => perPair.get(pair(e)) === 1).map(row));
  for (const e of events) if (perPair.get(pair(e))! > 1) await writeGeofenceStates(tx, [row(e)]);
}

async function endUnescorted(ctx: TrackingContext, tx: Tx, rejoined: EscortEvent[]): Promise<void> {
  for (const event of rejoined) await ctx.options.alertStore.endOpenAlerts(tx, [event.prisoner.deviceId], 'unescorted', event.at);
}

/**
 * A staff member's SOS names the officer and the nearest staff (issue 24 item 5) and keeps them as data for the live
 * map (decision 072); a prisoner's is unchanged.
 */
function alarmAlert(ctx: TrackingContext, device: TrackedDevice, kind: 'sos' | 'tamper', fix: { latitude: number; longitude: number }): { text: string; nearbyStaff?: NearbyStaff[] } {
  if (kind === 'tamper') return { text: `${displayName(device)}'s tracker reports tampering` };
  if (device.staffId === null) return { text: `SOS from ${displayName(device)}'s tracker` };
  const nearbyStaff = nearestStaff(ctx.registry, device, fix.latitude, fix.longitude);
  return { text: withNearestStaff(officerNeedsAssistance(displayName(device)), nearbyStaff), nearbyStaff };
}

/** The fix rules' state and alerts (decision 064), in the transaction; a rule's alert shows its wearer like any other. */
export async function writeRuleOutcomes(ctx: TrackingContext, tx: Tx, outcomes: readonly RuleOutcome[], drafts: AlertDraft[]): Promise<void> {
  for (const outcome of outcomes) {
    if (!outcome.write) continue;
    for (const alert of await outcome.write(tx)) {
      const device = alert.deviceId === null ? undefined : ctx.registry.get(alert.deviceId);
      drafts.push({
        alert: { ...alert, geofenceId: null },
        wearer: device ? { prisonerName: device.prisonerName, cellId: device.cellId, block: device.block } : { prisonerName: null, cellId: null, block: null },
      });
    }
  }
}

/**
 * The common case, nothing to raise: the fixes, the devices' state and the offline alerts of devices back online in
 * one statement, one round trip.
 */
export async function persistFixesOnly(ctx: TrackingContext, plan: BatchPlan): Promise<Persisted> {
  markStored(plan, await writeFixes(ctx.options.db, plan.rows, touchedDevices(ctx, plan), plan.cameOnline, plan.now));
  return { stored: [], drafts: plan.drafts };
}

/**
 * Cluster mode: the batch's fixes, device state, next revisions and engine memory in one statement guarded by the
 * revisions (`writeFixesAtRevision`), alone or as the first statement of the batch's transaction; false, having
 * written nothing, when another process wrote one of the devices since.
 */
export async function writeAtRevision(ctx: TrackingContext, db: DbOrTx, plan: BatchPlan): Promise<boolean> {
  if (plan.rows.length === 0) return true;
  const fresh = await writeFixesAtRevision(ctx, db, plan, touchedDevices(ctx, plan));
  if (!fresh) return false;
  markStored(plan, fresh);
  return true;
}

/**
 * Stores the fixes, the device state, the alerts and the geofence states of a planned batch in one transaction.
 * `written`: cluster mode, `writeAtRevision` already stored the fixes, the state and the revisions in this transaction.
 */
export async function persistPlan(ctx: TrackingContext, tx: Tx, plan: BatchPlan, written = false): Promise<Persisted> {
  const states = touchedDevices(ctx, plan);
  if (!written) markStored(plan, await writeFixes(tx, plan.rows, states, plan.cameOnline, plan.now));
  // A fix stored before raises nothing; an alarm repeated within a minute updates its open alert (decision 038).
  const alarms = plan.alarms.filter((a) => plan.outcomes[a.index] === 'stored').map((a) => ({ ...a, deviceId: a.device.id, kind: a.fix.alarm as 'sos' | 'tamper' }));
  const alarmGroups = await groupAlarms(tx, alarms);
  const alarmDrafts = new Map<AlarmGroup<(typeof alarms)[number]>, AlertDraft>();
  for (const group of alarmGroups) {
    if (!group.raises) continue;
    const { device, kind, at } = group.raises;
    const { text, nearbyStaff } = alarmAlert(ctx, device, kind, group.raises.fix);
    const draft = draftAlert(device, 'Critical', kind, text, at);
    if (nearbyStaff) draft.alert.nearbyStaff = nearbyStaff;
    alarmDrafts.set(group, draft);
    plan.drafts.push(alarmDrafts.get(group)!);
  }
  await writeRuleOutcomes(ctx, tx, plan.ruleOutcomes, plan.drafts);
  const inCluster = clustered(ctx);
  // Ends before starts: a pair that parted and met again within this batch alerts again, as on one process.
  if (inCluster) await releasePairs(tx, plan.endedPairs, plan.rejoined);
  const { drafts, events } = inCluster ? await claimPairAlerts(tx, plan.drafts, plan.events) : plan;
  const saved = await ctx.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert));
  const repeats = alarmGroups.filter((g) => g.repeats > 0);
  await recordAlarmRepeats(tx, repeats.map((g) => ({ ...g, alertId: g.alertId ?? saved[drafts.indexOf(alarmDrafts.get(g)!)]!.id })));
  await applyGeofenceEvents(tx, events, saved);
  await endUnescorted(ctx, tx, plan.rejoined);
  if (inCluster && !written) await writeRevisions(ctx, tx, states);
  return { stored: saved, drafts, repeated: repeats.length > 0 };
}
