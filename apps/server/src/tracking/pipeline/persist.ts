// Persist: stores a planned batch (the fixes, the devices' state, the alerts, alarm repeats and the geofence states)
// in one statement when it raises nothing or only its own alerts and geofence changes (decision 080), else in one
// transaction; and the geofence state changes of a tick.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { namedStatement, type NamedStatement } from '../../db/named-statements';
import type { TrackedDevice } from '../device-registry';
import { displayName } from '../device-registry';
import { groupAlarms, type AlarmGroup } from '../alarm-repeats';
import type { EscortEvent } from '../escort-monitor';
import type { RuleOutcome } from '../fix-rules';
import type { AlertStore, StoredAlert } from '../ports';
import { nearestStaff, officerNeedsAssistance, withNearestStaff, type NearbyStaff } from '../staff-sos';
import { clustered, type TrackingContext } from './context';
import { draftAlert, type AlertDraft, type GeofenceEvent } from './evaluate';
import { claimPairAlerts, releasePairs } from './pair-claims';
import { markStored, touchedDevices, type BatchPlan, type PositionRow } from './plan';
import { engineMemories, writeRevisions } from './takeover';

/** The alerts stored by a batch, and the drafts they came from (in the same order). */
export interface Persisted {
  stored: StoredAlert[];
  drafts: AlertDraft[];
  /** An open alert was updated by a repeat (an alarm, decision 038, or a folded rule): screens refetch, no new toast. */
  repeated?: boolean;
}

/**
 * The fixes as rows of `positions`, passed as one JSON parameter (decision 055): the driver sends one string rather
 * than preparing every element of eleven arrays. Times travel as milliseconds since the epoch and PostgreSQL makes
 * them timestamps (`FIX_ROWS`): writing two ISO texts per fix was a visible share of a batch's JavaScript, and a
 * number is cheaper to read for PostgreSQL too (decision 070; exact to the millisecond, as a JS Date is).
 */
function fixesJson(rows: PositionRow[]): string {
  return JSON.stringify(
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
}

const FIXES = sql`json_to_recordset(${sql.placeholder('fixes')}::json) as f(d text, p int, st int, t float8, r float8, la float8, lo float8, a real, s real, b real, al real, ba real)`;
/** The fixes' columns in `POSITION_COLUMNS` order, from `FIXES`' rows `f`. */
const FIX_ROWS = sql`f.d, f.p, f.st, to_timestamp(f.t / 1000), to_timestamp(f.r / 1000), f.la, f.lo, f.a, f.s, f.b, f.al, f.ba`;

/**
 * The devices' live state as one JSON parameter, read as `STATES`' rows `v` (times in ms); in cluster mode with each
 * device's engine memory (`memories`, same order) as `v.memory`: inside the one JSON text it costs neither a JSON
 * text per device nor the escaping of those texts into an array parameter (decision 079).
 */
function statesJson(states: TrackedDevice[], memories?: (object | null)[]): string {
  return JSON.stringify(
    states.map((d, i) => ({
      id: d.id,
      seen: d.lastSeenAt,
      fix: d.lastFixAt,
      lat: d.latitude,
      lng: d.longitude,
      battery: d.battery,
      online: d.online,
      low: d.lowBatteryAlerted,
      ...(memories && { memory: memories[i] }),
    })),
  );
}

/**
 * PostgreSQL guesses 100 rows for any JSON set, so the updates that join it also name the ids as an array
 * (`d.id = any(ids)`): without it the plan read every device of the table for each batch (decision 077).
 */
const STATES = sql`json_to_recordset(${sql.placeholder('states')}::json) as v(id text, seen float8, fix float8, lat float8, lng float8, battery real, online boolean, low boolean, memory jsonb)`;
const IDS = sql`${sql.placeholder('ids')}::text[]`;
const POSITION_COLUMNS = sql`positions (device_id, prisoner_id, staff_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)`;
const STATE_SET = sql`last_seen_at = to_timestamp(v.seen / 1000), last_fix_at = to_timestamp(v.fix / 1000), last_latitude = v.lat, last_longitude = v.lng,
        last_battery = v.battery, online = v.online, low_battery_alerted = v.low`;
type InsertedRow = { device_id: string | null; ms: number | string | null };
const insertedKeys = (rows: InsertedRow[]) => new Set(rows.filter((r) => r.device_id !== null).map((r) => `${r.device_id}|${Number(r.ms)}`));

/**
 * The devices of the batch that came back online (`online`): their open offline alerts end (the alerts port's
 * `endOfflineAlertsSql`), as one more part of the batch's statement, so a batch whose only news is a device reporting
 * again needs no transaction (decision 070). Only ever offline alerts, which no batch of fixes raises, so the order
 * against the batch's new alerts does not matter. A statement of its own with this part and one without: nearly
 * every batch has nobody back online.
 */
function endOfflineAlerts(alerts: AlertStore, guard = sql`true`) {
  return sql`, back_online as (
      ${alerts.endOfflineAlertsSql(sql`${sql.placeholder('online')}::text[]`, sql`${sql.placeholder('at')}::timestamptz`, guard)}
      returning 1
    )`;
}

type BackOnlineValues = { online: string[]; at: string };
/** Geofence state changes as `geofenceStateWrites` reads them: one JSON parameter, the ids again as arrays. */
type ChangeValues = { changes: string; changeDevices: string[]; changeGeofences: string[] };
/** The alerts and geofence state changes that `alertingParts` writes (decision 080). */
type AlertingValues = ChangeValues & { alerts: string };

/** A state change of one device and geofence: `a` its alert's id when known, `dr` its draft's index in the batch. */
interface ChangeRow {
  d: string;
  g: string;
  violating: boolean;
  /** When, in ms. */
  s: number;
  a?: number | null;
  dr?: number | null;
}

function changeValues(rows: ChangeRow[]): ChangeValues {
  return {
    changes: JSON.stringify(rows),
    changeDevices: [...new Set(rows.map((r) => r.d))],
    changeGeofences: [...new Set(rows.map((r) => r.g))],
  };
}

/**
 * What the geofence state changes in the rows `changes` (d, g, violating, s, a) write, only while `guard` holds: each
 * ending violation's alert records when it ended (the alerts port's `endViolationAlertsSql`), and every
 * pair's state row is written, keeping its alert when the change names none. Joined to geofences: a geofence deleted
 * a moment ago must not fail the fixes of everyone else. The ids as arrays lead PostgreSQL to the indexes, as in
 * `STATES`.
 */
function geofenceStateWrites(alerts: AlertStore, guard: SQL): SQL {
  return sql`, ended as (
      ${alerts.endViolationAlertsSql(sql`${sql.placeholder('changeDevices')}::text[]`, guard)}
    ), changed as (
      insert into geofence_states (device_id, geofence_id, violating, since, alert_id)
      select v.d, v.g, v.violating, v.s, v.a from changes v join geofences f on f.geofence_id = v.g
      where f.geofence_id = any(${sql.placeholder('changeGeofences')}::text[]) and ${guard}
      on conflict (device_id, geofence_id) do update
        set violating = excluded.violating, since = excluded.since, alert_id = coalesce(excluded.alert_id, geofence_states.alert_id)
    )`;
}
/** The rows a batch statement answers: the fixes inserted, and in an alerting form the alerts' ids. */
type BatchRow = InsertedRow & { alert_id: number | null; draft: number | null; repeated: boolean | null };

/**
 * The forms of a batch statement, each named and its text built once per alerts port (at its first use): with and
 * without `endOfflineAlerts`, and with and without `alertingParts`. `build` gets whether to end offline alerts, the
 * alerts port, and whether the form stores the batch's alerts.
 */
function batchStatementForms<Values extends Record<string, unknown>, Row>(
  name: string,
  build: (backOnline: boolean, alerts: AlertStore, alerting: boolean) => SQL,
) {
  const forms = <V extends Record<string, unknown>>(suffix: string, alerts: AlertStore, alerting: boolean) => ({
    plain: namedStatement<V, Row>(`${name}${suffix}`, build(false, alerts, alerting)),
    backOnline: namedStatement<V & BackOnlineValues, Row>(`${name}${suffix}-back-online`, build(true, alerts, alerting)),
  });
  const built = new WeakMap<AlertStore, { quiet: ReturnType<typeof forms<Values>>; alerting: ReturnType<typeof forms<Values & AlertingValues>> }>();
  return (alerts: AlertStore) => {
    let both = built.get(alerts);
    if (!both) built.set(alerts, (both = { quiet: forms<Values>('', alerts, false), alerting: forms<Values & AlertingValues>('-alerting', alerts, true) }));
    return both;
  };
}

/**
 * The parts of a batch statement that store its alerts and geofence state changes, after the fixes (decision 080):
 * the alerts through the alerts port (`stored_alerts`: each draft's alert, new or the open one it folded into); then
 * `geofenceStateWrites`, each start's state row taking the id of its draft's alert. Only while `guard` holds.
 */
function alertingParts(alerts: AlertStore, guard: SQL): SQL {
  return sql`, ${alerts.storeAlertsSql(sql`${sql.placeholder('alerts')}`, guard)}, changes as (
      select j.d, j.g, j.violating, to_timestamp(j.s / 1000) as s, n.id as a
      from json_to_recordset(${sql.placeholder('changes')}::json) as j(d text, g text, violating boolean, s float8, dr int)
      left join stored_alerts n on n.draft = j.dr
    )${geofenceStateWrites(alerts, guard)}`;
}

type FixValues = { fixes: string; states: string; ids: string[] };

const WRITE_FIXES = batchStatementForms<FixValues, BatchRow>(
  'write-fixes',
  (backOnline, alerts, alerting) => sql`
    with inserted as (
      insert into ${POSITION_COLUMNS}
      select ${FIX_ROWS} from ${FIXES}
      on conflict (device_id, recorded_at) do nothing
      returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
    ), state as (
      update devices as d set ${STATE_SET}
      from ${STATES}
      where d.id = any(${IDS}) and d.id = v.id
      returning 1
    )${backOnline ? endOfflineAlerts(alerts) : sql``}${alerting ? alertingParts(alerts, sql`true`) : sql``}
    select device_id, ms, null::int as alert_id, null::int as draft, null::boolean as repeated from inserted${
      alerting ? sql` union all select null, null, id, draft, repeated from stored_alerts` : sql``
    }`,
);

type Forms<Values extends Record<string, unknown>, Row> = ReturnType<typeof batchStatementForms<Values, Row>>;

/**
 * Runs the form of `statement` the batch needs: the one that ends offline alerts only when someone is back, and the
 * one that stores alerts only when `alerting` (the batch's alerts and geofence changes) is given.
 */
function runBatchStatement<Values extends Record<string, unknown>, Row>(
  db: DbOrTx,
  statement: Forms<Values, Row>,
  store: AlertStore,
  values: Values,
  cameOnline: ReadonlySet<string>,
  now: Date,
  alerting?: AlertingValues,
) {
  const online = cameOnline.size === 0 ? null : { online: [...cameOnline], at: now.toISOString() };
  const forms = statement(store);
  if (alerting) {
    const all = { ...values, ...alerting };
    return online ? forms.alerting.backOnline(db, { ...all, ...online }) : forms.alerting.plain(db, all);
  }
  return online ? forms.quiet.backOnline(db, { ...values, ...online }) : forms.quiet.plain(db, values);
}

/**
 * One statement for the fixes and the device state: a multi-row insert of the fixes (a fix already stored, same
 * device and time, is skipped), an update of the devices they came from, the end of the offline alerts of those that
 * came back online, and with `alerting` the batch's alerts and geofence states (decision 080). Two JSON parameters
 * however many fixes. A single statement is atomic, so such a batch needs no explicit transaction. Answers the keys
 * (`device|ms`) of the fixes actually inserted, and the alerts' ids in the drafts' order.
 */
export async function writeFixes(
  db: DbOrTx,
  store: AlertStore,
  rows: PositionRow[],
  states: TrackedDevice[],
  cameOnline: ReadonlySet<string>,
  now: Date,
  alerting?: AlertingValues,
): Promise<Written> {
  if (rows.length === 0 && !alerting) return { keys: new Set(), alerts: [] };
  const values = { fixes: fixesJson(rows), states: statesJson(states), ids: states.map((d) => d.id) };
  return written((await runBatchStatement(db, WRITE_FIXES, store, values, cameOnline, now, alerting)).rows);
}

type RevisionValues = FixValues & { revisions: number[]; node: string | null };

/** `writeFixesAtRevision`'s statement; every part after `current` runs only when `ok`. */
const WRITE_FIXES_AT_REVISION = batchStatementForms<RevisionValues, BatchRow & { ok: boolean }>(
  'write-fixes-at-revision',
  (backOnline, alerts, alerting) => {
    const ok = sql`(select ok from current)`;
    return sql`
    with locked as (
      select d.id, d.revision from devices d where d.id = any(${IDS}) order by d.id for update
    ), current as (
      select count(*) = cardinality(${IDS}) as ok
      from locked l join unnest(${IDS}, ${sql.placeholder('revisions')}::int[]) as e(id, rev) on e.id = l.id and e.rev = l.revision
    ), inserted as (
      insert into ${POSITION_COLUMNS}
      select ${FIX_ROWS} from ${FIXES} where ${ok}
      on conflict (device_id, recorded_at) do nothing
      returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
    ), state as (
      update devices as d set ${STATE_SET}, revision = d.revision + 1, engine_state = v.memory, engine_node = ${sql.placeholder('node')}
      from ${STATES}
      where d.id = any(${IDS}) and d.id = v.id and ${ok}
      returning 1
    )${backOnline ? endOfflineAlerts(alerts, ok) : sql``}${alerting ? alertingParts(alerts, ok) : sql``}
    select ${ok} as ok, i.device_id, i.ms, null::int as alert_id, null::int as draft, null::boolean as repeated
    from (select 1) as one left join inserted i on true${
      alerting ? sql` union all select true, null, null, id, draft, repeated from stored_alerts` : sql``
    }`;
  },
);

/** What a batch statement stored: the keys (`device|ms`) of the fixes inserted, and each draft's alert. */
interface Written {
  keys: Set<string>;
  alerts: { id: number; draft: number; repeated: boolean }[];
}

function written(rows: BatchRow[]): Written {
  const alerts: Written['alerts'] = [];
  for (const row of rows) if (row.alert_id !== null) alerts.push({ id: row.alert_id, draft: row.draft!, repeated: !!row.repeated });
  return { keys: insertedKeys(rows), alerts };
}

/**
 * Cluster mode, a batch that raises nothing or whose alerts go in the same statement (decisions 047, 080): the same
 * single statement, which also locks the devices' rows (in id order), checks that no other process wrote any of them
 * since this one last did (the revisions this process holds), and only then stores the fixes, the state, the next
 * revision, the engine's memory and the alerts. Answers null, having written nothing, when a revision moved: the
 * caller takes the stored state under the lock and plans again.
 */
async function writeFixesAtRevision(
  ctx: TrackingContext,
  db: DbOrTx,
  plan: BatchPlan,
  states: TrackedDevice[],
  alerting?: AlertingValues,
): Promise<Written | null> {
  const values: RevisionValues = {
    fixes: fixesJson(plan.rows),
    states: statesJson(states, engineMemories(ctx, states)),
    ids: states.map((d) => d.id),
    revisions: states.map((d) => d.revision),
    node: ctx.options.cluster?.instance ?? null,
  };
  const result = await runBatchStatement(db, WRITE_FIXES_AT_REVISION, ctx.options.alertStore, values, plan.cameOnline, plan.now, alerting);
  if (!result.rows[0]?.ok) return null;
  for (const device of states) device.revision += 1;
  return written(result.rows);
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
 * `geofenceStateWrites`. The changes are one JSON parameter, as the fixes, so the statement keeps one generic plan
 * (arrays of each batch's length had it planned again every time).
 */
const geofenceStateStatements = new WeakMap<AlertStore, NamedStatement<ChangeValues, unknown>>();
function writeGeofenceStatesStatement(alerts: AlertStore): NamedStatement<ChangeValues, unknown> {
  let statement = geofenceStateStatements.get(alerts);
  if (!statement) {
    statement = namedStatement<ChangeValues>(
      'write-geofence-states',
      sql`
    with changes as (
      select j.d, j.g, j.violating, to_timestamp(j.s / 1000) as s, j.a
      from json_to_recordset(${sql.placeholder('changes')}::json) as j(d text, g text, violating boolean, s float8, a int)
    )${geofenceStateWrites(alerts, sql`true`)}
    select 1`,
    );
    geofenceStateStatements.set(alerts, statement);
  }
  return statement;
}

async function writeGeofenceStates(tx: Tx, alerts: AlertStore, rows: StateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await writeGeofenceStatesStatement(alerts)(tx, changeValues(rows.map((r) => ({ d: r.deviceId, g: r.geofenceId, violating: r.violating, s: r.at.getTime(), a: r.alertId }))));
}

/**
 * Keeps geofence_states (so a restart does not re-raise a running violation) and closes ended alerts. Pairs of
 * device and geofence with one event in the batch (nearly all) are written in one statement whatever their number;
 * a pair with several events (in and out within one batch) is applied event by event, in order.
 */
export async function applyGeofenceEvents(tx: Tx, alerts: AlertStore, events: GeofenceEvent[], saved: StoredAlert[]): Promise<void> {
  if (events.length === 0) return;
  const pair = (e: GeofenceEvent) => `${e.deviceId}|${e.geofenceId}`;
  const perPair = new Map<string, number>();
  for (const e of events) perPair.set(pair(e), (perPair.get(pair(e)) ?? 0) + 1);
  const row = (e: GeofenceEvent): StateRow =>
    e.kind === 'start'
      ? { deviceId: e.deviceId, geofenceId: e.geofenceId, violating: true, at: e.at, alertId: saved[e.draft]!.id }
      : { deviceId: e.deviceId, geofenceId: e.geofenceId, violating: false, at: e.at, alertId: null };
  await writeGeofenceStates(tx, alerts, events.filter((e) => perPair.get(pair(e)) === 1).map(row));
  for (const e of events) if (perPair.get(pair(e))! > 1) await writeGeofenceStates(tx, alerts, [row(e)]);
}

async function endUnescorted(ctx: TrackingContext, tx: Tx, rejoined: EscortEvent[]): Promise<void> {
  for (const event of rejoined) await ctx.options.alertStore.endOpenAlerts(tx, [event.prisoner.deviceId], 'unescorted', event.at);
}

/**
 * A staff member's SOS names the officer and the nearest staff and keeps them as data for the live
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
        wearer: device ? { prisonerName: device.prisonerName, prisonNumber: device.prisonNumber, cellId: device.cellId, block: device.block } : { prisonerName: null, cellId: null, block: null },
      });
    }
  }
}

/**
 * Whether the batch is stored by one statement (decision 080): it raises nothing, or only alerts of its own drafts
 * and geofence state changes, each device and geofence pair changing once. An alarm (its repeats are read first), a
 * fix rule that writes, an escort rejoined, and in cluster mode a pair's claim or release take the transaction.
 */
export function storedInOneStatement(plan: BatchPlan): boolean {
  if (plan.alarms.length || plan.rejoined.length || plan.endedPairs.length) return false;
  if (plan.ruleOutcomes.some((outcome) => outcome.write)) return false;
  if (plan.drafts.some((draft) => draft.claim)) return false;
  const pairs = new Set<string>();
  for (const e of plan.events) {
    const pair = `${e.deviceId}|${e.geofenceId}`;
    if (pairs.has(pair)) return false;
    pairs.add(pair);
  }
  return true;
}

/** The batch's alerts and geofence changes as the alerting forms' values; none when it raises nothing. */
function alertingValues(ctx: TrackingContext, plan: BatchPlan): AlertingValues | undefined {
  if (plan.drafts.length === 0 && plan.events.length === 0) return undefined;
  const changes = plan.events.map((e) => ({ d: e.deviceId, g: e.geofenceId, violating: e.kind === 'start', s: e.at.getTime(), dr: e.kind === 'start' ? e.draft : null }));
  return { alerts: ctx.options.alertStore.alertsJson(plan.drafts.map((d) => d.alert)), ...changeValues(changes) };
}

/** The drafts' alerts with the ids the statement gave them (new, or the open alert a draft folded into). */
function storedAlerts(plan: BatchPlan, stored: Written['alerts']): StoredAlert[] {
  if (stored.length !== plan.drafts.length) throw new Error(`${plan.drafts.length} alerts to store, ${stored.length} stored`);
  const byDraft = new Map(stored.map((row) => [row.draft, row]));
  return plan.drafts.map((draft, i) => {
    const row = byDraft.get(i)!;
    return { ...draft.alert, id: row.id, ...(row.repeated ? { repeated: true } : {}) };
  });
}

/**
 * A batch that `storedInOneStatement`: the fixes, the devices' state, the offline alerts of devices back online, the
 * alerts and the geofence states in one statement, one round trip, no transaction (a single statement is atomic).
 */
export async function persistInOneStatement(ctx: TrackingContext, plan: BatchPlan): Promise<Persisted> {
  const result = await writeFixes(ctx.options.db, ctx.options.alertStore, plan.rows, touchedDevices(ctx, plan), plan.cameOnline, plan.now, alertingValues(ctx, plan));
  markStored(plan, result.keys);
  const stored = storedAlerts(plan, result.alerts);
  return { stored, drafts: plan.drafts, repeated: stored.some((alert) => alert.repeated) };
}

/**
 * Cluster mode: the batch's fixes, device state, next revisions and engine memory in one statement guarded by the
 * revisions (`writeFixesAtRevision`), alone or as the first statement of the batch's transaction; with `alerts` (a
 * batch that `storedInOneStatement`, alone) its alerts and geofence states too. Answers the alerts stored, or null,
 * having written nothing, when another process wrote one of the devices since.
 */
export async function writeAtRevision(ctx: TrackingContext, db: DbOrTx, plan: BatchPlan, alerts = false): Promise<StoredAlert[] | null> {
  const alerting = alerts ? alertingValues(ctx, plan) : undefined;
  if (plan.rows.length === 0 && !alerting) return [];
  const fresh = await writeFixesAtRevision(ctx, db, plan, touchedDevices(ctx, plan), alerting);
  if (!fresh) return null;
  markStored(plan, fresh.keys);
  return alerting ? storedAlerts(plan, fresh.alerts) : [];
}

/**
 * Stores the fixes, the device state, the alerts and the geofence states of a planned batch in one transaction.
 * `written`: cluster mode, `writeAtRevision` already stored the fixes, the state and the revisions in this transaction.
 */
export async function persistPlan(ctx: TrackingContext, tx: Tx, plan: BatchPlan, written = false): Promise<Persisted> {
  const states = touchedDevices(ctx, plan);
  if (!written) markStored(plan, (await writeFixes(tx, ctx.options.alertStore, plan.rows, states, plan.cameOnline, plan.now)).keys);
  // A fix stored before raises nothing; an alarm repeated within a minute updates its open alert (decision 038).
  const alarms = plan.alarms.filter((a) => plan.outcomes[a.index] === 'stored').map((a) => ({ ...a, deviceId: a.device.id, kind: a.fix.alarm as 'sos' | 'tamper' }));
  const alarmGroups = await groupAlarms(tx, ctx.options.alertStore, alarms);
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
  await ctx.options.alertStore.recordRepeats(tx, repeats.map((g) => ({ ...g, alertId: g.alertId ?? saved[drafts.indexOf(alarmDrafts.get(g)!)]!.id })));
  await applyGeofenceEvents(tx, ctx.options.alertStore, events, saved);
  await endUnescorted(ctx, tx, plan.rejoined);
  if (inCluster && !written) await writeRevisions(ctx, tx, states);
  return { stored: saved, drafts, repeated: repeats.length > 0 || saved.some((alert) => alert.repeated) };
}
