// Writing alerts: the insert the tracking core's batch statement embeds (decision 080), the same insert on its own for
// the features that raise alerts (counts, observations, readers), the end of a device's open alerts of a kind, and
// the live event (`showAlert`) a stored alert is pushed as. composition.ts hands these to the core as its AlertStore.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alertLevelOf, type ShowAlertEvent } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statements';
import { alerts } from '../../db/schema';
import type { AlertKind, AlertRepeats, AlertWearer, NewAlert, OpenAlarmAlert, StoredAlert } from '../../tracking/ports';

export type { AlertKind, AlertWearer, NewAlert, StoredAlert };

export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The kinds whose repeat for one person folds into the open alert of the same rule until it is resolved. */
export const FOLDED_KINDS: readonly AlertKind[] = ['geofence', 'offline'];
const FOLDED = sql.join(
  FOLDED_KINDS.map((kind) => sql.raw(`'${kind}'`)),
  sql`, `,
);

/**
 * Whether an alert is work for the control room. An Informational zone alert (someone entered the Exercise Yard) is
 * an event: stored and shown on the map, the timeline and the alerts screen, but out of the open queue, the counts and
 * the toasts, unless ZONE_ENTRIES_NEED_ACTION says otherwise (the draft's own `needsAction`).
 */
export function needsAction(draft: NewAlert): boolean {
  return draft.needsAction ?? !(draft.kind === 'geofence' && draft.alertType === 'Informational');
}

/**
 * Stores the drafts in `json` (`alertsJson`) for which `where` holds, as the parts of a `with` list that end in
 * `stored_alerts(id, draft, repeated)`: `draft` the draft's index, `repeated` true when it folded into an open alert.
 * A draft of a folded kind whose rule (kind and zone) and person (prisoner, else device) have an alert that is not
 * resolved adds to that alert's repeat count and last time (and runs again: `ended_at` cleared) instead of raising
 * another; events (`needsAction` false) never fold, each is a line of the timeline; the rest are inserted, their ids ascending in the drafts' order. A statement of its own here
 * (`storeAlerts`), and a part of the tracking core's batch statement (decision 080), which passes its own JSON
 * placeholder and guard. Two drafts of one rule and person within one `json` both insert: `storeAlerts` splits them.
 */
export function storeAlertsSql(json: SQL, where: SQL = sql`true`): SQL {
  return sql`alert_drafts as (
      select j.ty, j.k, j.de, j.day, j.t, j.dv, j.p, j.g, j.ns, j.na, (j.ord - 1)::int as draft
      from rows from (json_to_recordset(${json}::json) as (ty text, k text, de text, day text, t float8, dv text, p int, g text, ns jsonb, na boolean))
        with ordinality as j(ty, k, de, day, t, dv, p, g, ns, na, ord)
      where ${where}
    ), open_alerts as (
      select distinct on (d.draft) d.draft, a.id
      from alert_drafts d join alerts a
        on d.k in (${FOLDED}) and d.na and a.kind = d.k and a.kind in (${FOLDED}) and a.status <> 'Resolved' and a.needs_action
          and a.geofence_id is not distinct from d.g
          and (a.prisoner_id = d.p or (d.p is null and a.prisoner_id is null and a.device_id = d.dv))
      order by d.draft, a.id desc
    ), folded_alerts as (
      update alerts as a set repeat_count = a.repeat_count + f.n,
        last_repeat_at = greatest(coalesce(a.last_repeat_at, a.timestamp), f.at), ended_at = null
      from (select o.id, count(*)::int as n, to_timestamp(max(d.t) / 1000) as at from open_alerts o join alert_drafts d on d.draft = o.draft group by o.id) as f
      where a.id = f.id
      returning a.id
    ), fresh_alerts as (
      select d.* from alert_drafts d where not exists (select 1 from open_alerts o where o.draft = d.draft)
    ), inserted_alerts as (
      insert into alerts (alert_type, kind, details, date, timestamp, device_id, prisoner_id, geofence_id, nearby_staff, needs_action)
      select f.ty, f.k, f.de, f.day::date, to_timestamp(f.t / 1000), f.dv, f.p, f.g, f.ns, f.na
      from fresh_alerts f
      order by f.draft
      returning id
    ), stored_alerts as (
      select i.id, n.draft, false as repeated
      from (select id, row_number() over (order by id) as r from inserted_alerts) as i
        join (select draft, row_number() over (order by draft) as r from fresh_alerts) as n on n.r = i.r
      union all
      select o.id, o.draft, true from open_alerts o
    )`;
}

/** The drafts as `storeAlertsSql`'s one JSON parameter. */
export function alertsJson(drafts: NewAlert[]): string {
  return JSON.stringify(
    drafts.map((d) => ({
      ty: d.alertType,
      k: d.kind,
      de: d.details,
      day: isoDay(d.at),
      t: d.at.getTime(),
      dv: d.deviceId,
      p: d.prisonerId,
      g: d.geofenceId ?? null,
      ns: d.nearbyStaff ?? null,
      na: needsAction(d),
    })),
  );
}

type StoredRow = { id: number; draft: number; repeated: boolean };

const STORE_ALERTS = namedStatement<{ drafts: string }, StoredRow>(
  'store-alerts',
  sql`with ${storeAlertsSql(sql`${sql.placeholder('drafts')}`)} select id, draft, repeated from stored_alerts`,
);

/** The drafts' alerts with the ids (and folds) a statement answered, in the drafts' order. */
export function storedInOrder(drafts: NewAlert[], rows: StoredRow[]): StoredAlert[] {
  const byDraft = new Map(rows.map((row) => [Number(row.draft), row]));
  return drafts.map((draft, i) => {
    const row = byDraft.get(i);
    if (!row) throw new Error(`alert ${i} of ${drafts.length} was not stored`);
    return { ...draft, id: Number(row.id), ...(row.repeated ? { repeated: true } : {}) };
  });
}

/** Who and which rule a folded draft concerns; null for a kind that never folds. */
function foldKey(draft: NewAlert): string | null {
  if (!FOLDED_KINDS.includes(draft.kind) || !needsAction(draft)) return null;
  const person = draft.prisonerId !== null ? `p${draft.prisonerId}` : `d${draft.deviceId}`;
  return `${draft.kind}|${draft.geofenceId ?? ''}|${person}`;
}

/**
 * Stores alerts, folding repeats (`storeAlertsSql`); answers them in input order. The drafts travel as one JSON
 * parameter under a name (decision 077). Drafts of one rule and person go in successive rounds, so the second folds
 * into the first.
 */
export async function insertAlerts(db: DbOrTx, drafts: NewAlert[]): Promise<StoredAlert[]> {
  const stored: StoredAlert[] = new Array<StoredAlert>(drafts.length);
  let pending = drafts.map((draft, index) => ({ draft, index }));
  while (pending.length > 0) {
    const seen = new Set<string>();
    const round: typeof pending = [];
    const later: typeof pending = [];
    for (const item of pending) {
      const key = foldKey(item.draft);
      if (key !== null && seen.has(key)) later.push(item);
      else {
        if (key !== null) seen.add(key);
        round.push(item);
      }
    }
    const roundDrafts = round.map((item) => item.draft);
    const result = await STORE_ALERTS(db, { drafts: alertsJson(roundDrafts) });
    storedInOrder(roundDrafts, result.rows).forEach((alert, i) => (stored[round[i]!.index] = alert));
    pending = later;
  }
  return stored;
}

/** The live event (docs/CLIENT-CONTRACT.md: index, alert_type as a lowercase level, message) plus what the toast and the alerts screen use. */
export function showAlertEvent(
  alert: StoredAlert,
  wearer: AlertWearer,
): ShowAlertEvent & { alertId: number; block?: string | null } {
  const event = needsAction(alert) ? {} : { needsAction: false };
  return {
    index: alert.deviceId ?? '',
    // Lowercase, as docs/CLIENT-CONTRACT.md names the levels and the spec's client compares them (decision 105).
    alert_type: alertLevelOf(alert.alertType),
    message: alert.details,
    alertId: alert.id,
    ...(wearer.prisonerName ? { prisonerName: wearer.prisonerName } : {}),
    ...(alert.prisonerId !== null ? { prisonerId: alert.prisonerId, cellId: wearer.cellId, block: wearer.block } : {}),
    ...(alert.prisonerId !== null && wearer.prisonNumber ? { prisonNumber: wearer.prisonNumber } : {}),
    timestamp: alert.at.toISOString(),
    ...event,
  };
}

/** Ends open alerts of one kind for a device (an offline alert ends when the device reports again). */
export async function endOpenAlerts(db: DbOrTx, deviceIds: string[], kind: AlertKind, at: Date): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .update(alerts)
    .set({ endedAt: at })
    .where(and(inArray(alerts.deviceId, deviceIds), eq(alerts.kind, kind), sql`${alerts.endedAt} is null`));
}

/**
 * A part of a batch statement (decision 070): ends the open offline alerts of the devices in `deviceIds` (a text
 * array) at `at`, while `guard` holds.
 */
export function endOfflineAlertsSql(deviceIds: SQL, at: SQL, guard: SQL): SQL {
  return sql`update alerts set ended_at = ${at}
      where device_id = any(${deviceIds}) and kind = 'offline' and ended_at is null and ${guard}`;
}

/**
 * A part of a batch statement: the alerts of the violations that end in `changes` (rows d, g, violating, s) record
 * when (`s`); each is found through its state row in geofence_states as it was before the statement. `devices` (a
 * text array of the changes' devices) leads PostgreSQL to the index.
 */
export function endViolationAlertsSql(devices: SQL, guard: SQL): SQL {
  return sql`update alerts as a set ended_at = v.s
      from changes v join geofence_states s on s.device_id = v.d and s.geofence_id = v.g
      where s.device_id = any(${devices}) and not v.violating and a.id = s.alert_id and a.ended_at is null and ${guard}`;
}

/**
 * The open (not resolved) alarm alerts of these devices last raised or repeated since `earliest`, locked for the
 * transaction, so a repeat never lands on an alert resolved a moment before.
 */
export async function openAlarmAlerts(tx: Tx, deviceIds: string[], earliest: Date): Promise<OpenAlarmAlert[]> {
  const result = (await tx.execute(sql`
    select id, device_id, kind, coalesce(last_repeat_at, timestamp) as last
    from alerts
    where device_id = any(${sql.param(deviceIds)}::text[]) and kind in ('sos', 'tamper') and status <> 'Resolved'
      and coalesce(last_repeat_at, timestamp) >= ${earliest.toISOString()}::timestamptz
    order by last, id
    for update`)) as unknown as { rows: { id: number; device_id: string; kind: string; last: Date | string }[] };
  return result.rows.map((row) => ({ id: Number(row.id), deviceId: row.device_id, kind: row.kind, last: new Date(row.last) }));
}

/** Adds repeats to their alerts (stored, or just inserted by the same transaction). */
export async function recordRepeats(tx: Tx, repeats: AlertRepeats[]): Promise<void> {
  if (repeats.length === 0) return;
  await tx.execute(sql`
    update alerts as a set repeat_count = a.repeat_count + v.n, last_repeat_at = greatest(coalesce(a.last_repeat_at, a.timestamp), v.at)
    from unnest(${sql.param(repeats.map((r) => r.alertId))}::int[], ${sql.param(repeats.map((r) => r.repeats))}::int[],
      ${sql.param(repeats.map((r) => r.lastAt.toISOString()))}::timestamptz[]) as v(id, n, at)
    where a.id = v.id`);
}

/**
 * Deletes up to `limit` resolved alerts raised and resolved before `cutoff` (their deliveries go with them); answers
 * how many. An alert that is not resolved, or a geofence violation still running, is never deleted, however old.
 * Events (zone entries) are never worked to resolved, so they go once raised and ended before `cutoff`.
 */
export async function deleteResolvedAlerts(db: DbOrTx, cutoff: string, limit: number): Promise<number> {
  const result = (await db.execute(sql`delete from alerts where id in (
      select id from alerts
      where timestamp < ${cutoff}::timestamptz
        and ((status = 'Resolved' and (resolved_at is null or resolved_at < ${cutoff}::timestamptz))
          or (not needs_action and ended_at < ${cutoff}::timestamptz))
        and (kind <> 'geofence' or ended_at is not null)
      limit ${limit}
    )`)) as unknown as { affectedRows?: number; rowCount?: number | null };
  return result.affectedRows ?? result.rowCount ?? 0;
}
