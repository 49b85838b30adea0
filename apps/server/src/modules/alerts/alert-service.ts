// Stored alerts: raised by the tracking service (geofence, offline, sos, tamper, battery) or posted by an operator
// or an outside system (manual). Reusable by other alert routes (acknowledge, resolve).
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  AlertInput,
  AlertListQuery,
  AlertPage,
  AlertRecord,
  AlertStatus,
  AlertType,
  LiveMapPrisonerAlerts,
  LiveMapStaffInDanger,
  ShowAlertEvent,
} from '@prison/shared';
import { ALERT_STATUSES, ALERT_TYPES, LIVE_MAP_ALERTS_LISTED, parseTimestamp, totalPages } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { namedStatement } from '../../db/named-statements';
import { admins, alerts, cells, devices, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { nobodyOrInCaseload, prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { badRequest, notFound } from '../../lib/http-errors';
import type { AlertKind, AlertWearer, NewAlert, StoredAlert } from '../../tracking/ports';

export type { AlertKind, AlertWearer, NewAlert, StoredAlert };

export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * An insert of the drafts in `json` (`alertsJson`) for which `where` holds, answering their ids; `with ordinality`
 * keeps the ids in the drafts' order (ascending). A statement of its own here, and a part of the tracking core's
 * batch statement (decision 080), which passes it its own JSON placeholder and guard.
 */
export function insertAlertsSql(json: SQL, where: SQL = sql`true`): SQL {
  return sql`insert into alerts (alert_type, kind, details, date, timestamp, device_id, prisoner_id, geofence_id, nearby_staff)
    select j.ty, j.k, j.de, j.day::date, to_timestamp(j.t / 1000), j.dv, j.p, j.g, j.ns
    from rows from (json_to_recordset(${json}::json) as (ty text, k text, de text, day text, t float8, dv text, p int, g text, ns jsonb))
      with ordinality as j(ty, k, de, day, t, dv, p, g, ns, ord)
    where ${where}
    order by j.ord
    returning id`;
}

/** The drafts as `insertAlertsSql`'s one JSON parameter. */
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
    })),
  );
}

const INSERT_ALERTS = namedStatement<{ drafts: string }, { id: number }>('insert-alerts', insertAlertsSql(sql`${sql.placeholder('drafts')}`));

/**
 * Stores alerts in one statement; ids come back in input order. The drafts travel as one JSON parameter under a name
 * (decision 077): a batch of fixes raises alerts in most batches, and Drizzle's insert builder cost more of the
 * server's CPU than PostgreSQL's insert did.
 */
export async function insertAlerts(db: DbOrTx, drafts: NewAlert[]): Promise<StoredAlert[]> {
  if (drafts.length === 0) return [];
  const result = await INSERT_ALERTS(db, { drafts: alertsJson(drafts) });
  return drafts.map((d, i) => ({ ...d, id: result.rows[i]!.id }));
}

/** The live event (SPEC.md section 7: index, alert_type, message) plus what the toast and the alerts screen use. */
export function showAlertEvent(alert: StoredAlert, wearer: AlertWearer): ShowAlertEvent & { alertId: number; block?: string | null } {
  return {
    index: alert.deviceId ?? '',
    alert_type: alert.alertType,
    message: alert.details,
    alertId: alert.id,
    ...(wearer.prisonerName ? { prisonerName: wearer.prisonerName } : {}),
    ...(alert.prisonerId !== null ? { prisonerId: alert.prisonerId, cellId: wearer.cellId, block: wearer.block } : {}),
    timestamp: alert.at.toISOString(),
  };
}

const acknowledger = alias(admins, 'acknowledger');
const resolver = alias(admins, 'resolver');

function selectAlertRecords(db: DbOrTx) {
  return db
    .select({
      id: alerts.id,
      alertType: alerts.alertType,
      kind: alerts.kind,
      details: alerts.details,
      date: alerts.date,
      timestamp: alerts.timestamp,
      deviceId: alerts.deviceId,
      prisonerId: alerts.prisonerId,
      geofenceId: alerts.geofenceId,
      endedAt: alerts.endedAt,
      status: alerts.status,
      firstName: prisoners.firstName,
      lastName: prisoners.lastName,
      cellId: prisoners.cellId,
      acknowledgedBy: acknowledger.username,
      acknowledgedAt: alerts.acknowledgedAt,
      resolvedBy: resolver.username,
      resolvedAt: alerts.resolvedAt,
      note: alerts.note,
      repeatCount: alerts.repeatCount,
      lastRepeatAt: alerts.lastRepeatAt,
      nearbyStaff: alerts.nearbyStaff,
    })
    .from(alerts)
    .leftJoin(prisoners, eq(prisoners.prisonerId, alerts.prisonerId))
    .leftJoin(acknowledger, eq(acknowledger.id, alerts.acknowledgedBy))
    .leftJoin(resolver, eq(resolver.id, alerts.resolvedBy));
}

type AlertRow = Awaited<ReturnType<typeof selectAlertRecords>>[number];

export function toAlertRecord(row: AlertRow): AlertRecord {
  return {
    id: row.id,
    alert_type: row.alertType as AlertType,
    kind: row.kind,
    details: row.details,
    date: row.date,
    timestamp: row.timestamp.toISOString(),
    device_id: row.deviceId,
    prisoner_id: row.prisonerId,
    geofence_id: row.geofenceId,
    ended_at: row.endedAt?.toISOString() ?? null,
    status: row.status as AlertStatus,
    first_name: row.firstName,
    last_name: row.lastName,
    cell_id: row.cellId,
    acknowledged_by: row.acknowledgedBy,
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    resolved_by: row.resolvedBy,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    note: row.note,
    repeat_count: row.repeatCount,
    last_repeat_at: row.lastRepeatAt?.toISOString() ?? null,
    // Only on a staff SOS (decision 072): every other alert reads as before.
    ...(row.nearbyStaff ? { nearby_staff: row.nearbyStaff } : {}),
  };
}

/** A stored alert's live event, read back (another process raised it; cluster/alert-feed.ts). Null: gone. */
export async function readShowAlertEvent(db: DbOrTx, id: number): Promise<(ShowAlertEvent & { block?: string | null }) | null> {
  const [row] = await selectAlertRecords(db).where(eq(alerts.id, id));
  if (!row) return null;
  const block = row.cellId === null ? null : ((await db.select({ block: cells.block }).from(cells).where(eq(cells.cellId, row.cellId)))[0]?.block ?? null);
  const wearer = { prisonerName: row.prisonerId === null ? null : `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim(), cellId: row.cellId, block };
  return showAlertEvent({ ...row, alertType: row.alertType as AlertType, kind: row.kind as AlertKind, at: row.timestamp }, wearer);
}

export async function findAlertRecord(db: DbOrTx, id: number): Promise<AlertRecord> {
  const [row] = await selectAlertRecords(db).where(eq(alerts.id, id));
  if (!row) throw notFound(`Alert ${id} not found`);
  return toAlertRecord(row);
}

/** The live map shows no archived prisoner (decision 042); his alerts stay in the alert lists until closed. */
const notArchived = sql`not exists (select 1 from ${prisoners} archived where archived.prisoner_id = ${alerts.prisonerId} and archived.archived_at is not null)`;

/**
 * Prisoners whose geofence violation is still going on (its alert has not ended) and has not been resolved by an
 * operator: the live map marks them. Read from every open alert, not from a page of the newest ones.
 */
export async function listOpenViolations(db: DbOrTx, caseload: Caseload = []): Promise<number[]> {
  const rows = await db
    .selectDistinct({ prisonerId: alerts.prisonerId })
    .from(alerts)
    .where(
      and(
        eq(alerts.kind, 'geofence'),
        isNull(alerts.endedAt),
        isNotNull(alerts.prisonerId),
        ne(alerts.status, 'Resolved'),
        notArchived,
        nobodyOrInCaseload(alerts.prisonerId, caseload),
      ),
    );
  return rows.map((row) => row.prisonerId!).sort((a, b) => a - b);
}

/**
 * The live map's alert picture per prisoner (decision 026), in one grouped statement over the open alerts only (the
 * status index and the open-violation index find them): whether a geofence violation is open, the worst open (New)
 * level, how many are open and the first LIVE_MAP_ALERTS_LISTED of them, worst first, then newest.
 */
export async function listLiveMapAlerts(db: DbOrTx, caseload: Caseload = []): Promise<LiveMapPrisonerAlerts[]> {
  const rank = sql`case alert_type when 'Critical' then 0 when 'Warning' then 1 else 2 end`;
  const result = (await db.execute(sql`
    select prisoner_id,
           bool_or(kind = 'geofence' and ended_at is null and status <> 'Resolved') as in_violation,
           min(${rank}) filter (where kind = 'geofence' and ended_at is null and status <> 'Resolved')
             as violation_rank,
           count(*) filter (where status = 'New')::int as open_count,
           min(${rank}) filter (where status = 'New') as worst_rank,
           coalesce(to_json((array_agg(
             json_build_object('id', id, 'alert_type', alert_type, 'details', details, 'timestamp', timestamp)
             order by ${rank}, timestamp desc, id desc
           ) filter (where status = 'New'))[1:${sql.raw(String(LIVE_MAP_ALERTS_LISTED))}]), '[]'::json) as open
    from alerts
    where prisoner_id is not null and ${notArchived} and ${prisonerInCaseloadOrTrue(alerts.prisonerId, caseload)}
      and (status = 'New' or (kind = 'geofence' and ended_at is null and status <> 'Resolved'))
    group by prisoner_id
    order by prisoner_id
  `)) as unknown as {
    rows: {
      prisoner_id: number;
      in_violation: boolean;
      violation_rank: number | null;
      open_count: number;
      worst_rank: number | null;
      open: { id: number; alert_type: AlertType; details: string; timestamp: string }[];
    }[];
  };
  const byRank: (AlertType | null)[] = ['Critical', 'Warning', 'Informational'];
  return result.rows.map((row) => ({
    prisoner_id: Number(row.prisoner_id),
    in_violation: Boolean(row.in_violation),
    violation_level: row.violation_rank === null ? null : (byRank[Number(row.violation_rank)] ?? null),
    worst_level: row.worst_rank === null ? null : (byRank[Number(row.worst_rank)] ?? null),
    open_count: Number(row.open_count),
    open: row.open.map((alert) => ({ ...alert, timestamp: new Date(alert.timestamp).toISOString() })),
  }));
}

/** How many open staff SOS alerts the live map is given at most (newest first). */
export const LIVE_MAP_STAFF_IN_DANGER_LISTED = 20;

/**
 * The open (not resolved) staff SOS alerts with the nearest staff at the alarm, newest first (decision 072). About
 * nobody, so every caseload sees them (decision 051); the open-alarm index (device, kind; sos and tamper not resolved)
 * holds them.
 */
export async function listStaffInDanger(db: DbOrTx): Promise<LiveMapStaffInDanger[]> {
  const rows = await db
    .select({
      id: alerts.id,
      deviceId: alerts.deviceId,
      details: alerts.details,
      timestamp: alerts.timestamp,
      status: alerts.status,
      nearbyStaff: alerts.nearbyStaff,
    })
    .from(alerts)
    .where(and(eq(alerts.kind, 'sos'), ne(alerts.status, 'Resolved'), isNotNull(alerts.nearbyStaff), isNotNull(alerts.deviceId)))
    .orderBy(desc(alerts.timestamp), desc(alerts.id))
    .limit(LIVE_MAP_STAFF_IN_DANGER_LISTED);
  return rows.map((row) => ({
    alert_id: row.id,
    device_id: row.deviceId!,
    details: row.details,
    timestamp: row.timestamp.toISOString(),
    status: row.status as AlertStatus,
    nearby_staff: row.nearbyStaff ?? [],
  }));
}

/** The newest few, for the home page's Recent Alerts panel. */
export async function listRecentAlerts(db: DbOrTx, limit: number, caseload: Caseload = []): Promise<AlertRecord[]> {
  const rows = await selectAlertRecords(db).where(nobodyOrInCaseload(alerts.prisonerId, caseload)).orderBy(desc(alerts.timestamp), desc(alerts.id)).limit(limit);
  return rows.map(toAlertRecord);
}

function listFilters(query: Omit<AlertListQuery, 'page' | 'limit' | 'alert_type'>, caseload: Caseload): SQL[] {
  const filters: SQL[] = [];
  const inCaseload = nobodyOrInCaseload(alerts.prisonerId, caseload);
  if (inCaseload) filters.push(inCaseload);
  if (query.status) filters.push(eq(alerts.status, query.status));
  if (query.prisoner_id !== undefined) filters.push(eq(alerts.prisonerId, query.prisoner_id));
  if (query.from) filters.push(gte(alerts.timestamp, new Date(query.from)));
  if (query.to) filters.push(lte(alerts.timestamp, new Date(query.to)));
  return filters;
}

/**
 * Newest first, paginated, with counts over the filtered set. One grouped count (per type and status, at most nine
 * rows) beside the page gives every count (decision 029):
 * - `counts`: per type over every filter but the type itself (the first version's meaning, which the layout's
 *   open-alert counts rely on: one request for the open Criticals and every level's open count);
 * - `filteredCounts`: per type over every filter, the type included (the alerts screen's header);
 * - `statusCounts`: per status over every filter.
 */
export async function listPrisonerAlerts(db: DbOrTx, query: AlertListQuery, caseload: Caseload = []): Promise<AlertPage> {
  const base = listFilters(query, caseload);
  const filters = query.alert_type ? [...base, eq(alerts.alertType, query.alert_type)] : base;
  const where = filters.length ? and(...filters) : undefined;
  const countWhere = base.length ? and(...base) : undefined;
  const [rows, grouped] = await Promise.all([
    selectAlertRecords(db)
      .where(where)
      .orderBy(desc(alerts.timestamp), desc(alerts.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ alertType: alerts.alertType, status: alerts.status, n: count() })
      .from(alerts)
      .where(countWhere)
      .groupBy(alerts.alertType, alerts.status),
  ]);
  const counts = { Critical: 0, Warning: 0, Informational: 0 };
  const filteredCounts = { Critical: 0, Warning: 0, Informational: 0 };
  const statusCounts = { New: 0, Acknowledged: 0, Resolved: 0 };
  for (const c of grouped) {
    if (!(ALERT_TYPES as readonly string[]).includes(c.alertType)) continue;
    const type = c.alertType as AlertType;
    counts[type] += c.n;
    if (query.alert_type && query.alert_type !== type) continue;
    filteredCounts[type] += c.n;
    if ((ALERT_STATUSES as readonly string[]).includes(c.status)) statusCounts[c.status as AlertStatus] += c.n;
  }
  const total = filteredCounts.Critical + filteredCounts.Warning + filteredCounts.Informational;
  return {
    data: rows.map(toAlertRecord),
    currentPage: query.page,
    totalPages: totalPages(total, query.limit),
    totalAlerts: total,
    counts,
    filteredCounts,
    statusCounts,
  };
}

/** "YYYY-MM-DD HH:MM:SS" (SPEC.md section 7) read as UTC; an ISO instant with an offset is honoured. */
function parseAlertTimestamp(value: string): Date {
  const at = parseTimestamp(value);
  if (!at) throw badRequest('timestamp: must be a real timestamp as YYYY-MM-DD HH:MM:SS');
  return at;
}

/** What makes two alerts the same one for POST /alert/all (decision 019): its device, type and text. */
interface AlertIdentity {
  deviceId: string | null;
  alertType: AlertType;
  details: string;
}

/** Arbitrary, fixed: the first key of this check's advisory locks, so they never meet another feature's locks. */
const ALERT_POST_LOCK_CLASS = 19_019;

/**
 * The newest alert with this identity stored within the last `windowSeconds` (by the database's clock, when it was
 * stored, not the time it is about: a late fix raises an alert about an hour ago), whatever its status. One indexed
 * query that also reads what the answer shows.
 */
async function findRecentSameAlert(db: DbOrTx, same: AlertIdentity, windowSeconds: number): Promise<AlertRecord | null> {
  const [row] = await selectAlertRecords(db)
    .where(
      and(
        same.deviceId === null ? isNull(alerts.deviceId) : eq(alerts.deviceId, same.deviceId),
        gte(alerts.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
        eq(alerts.alertType, same.alertType),
        eq(alerts.details, same.details),
      ),
    )
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(1);
  return row ? toAlertRecord(row) : null;
}

export interface PostAlertOptions {
  /** A post repeating an alert stored this recently answers that alert (ALERT_ECHO_WINDOW_SECONDS). */
  echoWindowSeconds: number;
  /** Runs just before a new alert is stored, never for a repeat; throws to refuse it (the per-session limit). */
  beforeStore?: () => void;
}

export type PostedAlert =
  | { created: true; alert: StoredAlert; record: AlertRecord; wearer: AlertWearer }
  | { created: false; record: AlertRecord };

/**
 * POST /alert/all: an alert from an operator or an outside system. The spec's client posts back every `showAlert` it
 * receives (device_id = index, details = message), and an outside system may retry: a post with the device, type
 * and text of an alert stored within the window answers that alert and changes nothing (decision 019). Posts with one
 * identity are serialised by an advisory lock, so parallel copies store exactly one alert.
 */
export async function createManualAlert(
  db: DbOrTx,
  who: AuditActor,
  input: AlertInput,
  options: PostAlertOptions,
  now = new Date(),
): Promise<PostedAlert> {
  const same: AlertIdentity = { deviceId: input.device_id || null, alertType: input.alert_type, details: input.details };
  // Repeats are the common case (every browser of the spec's client echoes every live alert): answered by one read.
  const repeated = await findRecentSameAlert(db, same, options.echoWindowSeconds);
  if (repeated) return { created: false, record: repeated };

  const at = input.timestamp
    ? parseAlertTimestamp(input.timestamp)
    : input.date
      ? new Date(`${input.date}T00:00:00Z`)
      : now;
  const { deviceId } = same;
  return db.transaction(async (tx): Promise<PostedAlert> => {
    const identity = JSON.stringify([same.deviceId, same.alertType, same.details]);
    await tx.execute(sql`select pg_advisory_xact_lock(${ALERT_POST_LOCK_CLASS}, hashtext(${identity}))`);
    // A parallel copy may have stored it while this one waited for the lock.
    const stored = await findRecentSameAlert(tx, same, options.echoWindowSeconds);
    if (stored) return { created: false, record: stored };

    let prisonerId: number | null = null;
    let wearer: AlertWearer = { prisonerName: null, cellId: null, block: null };
    if (deviceId) {
      const [device] = await tx
        .select({
          id: devices.id,
          prisonerId: prisoners.prisonerId,
          firstName: prisoners.firstName,
          lastName: prisoners.lastName,
          cellId: prisoners.cellId,
          block: cells.block,
        })
        .from(devices)
        .leftJoin(prisoners, eq(prisoners.trackingDeviceId, devices.id))
        .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
        .where(eq(devices.id, deviceId));
      if (!device) throw notFound(`device_id: device ${deviceId} not found`);
      prisonerId = device.prisonerId ?? null;
      if (device.prisonerId) wearer = { prisonerName: `${device.firstName} ${device.lastName}`.trim(), cellId: device.cellId, block: device.block };
    }
    options.beforeStore?.();
    const [alert] = await insertAlerts(tx, [
      { alertType: input.alert_type, kind: 'manual', details: input.details, at, deviceId, prisonerId },
    ]);
    // The stored day is the one the caller gave (SPEC.md sends both date and timestamp).
    if (input.date && input.date !== isoDay(at))
      await tx.update(alerts).set({ date: input.date }).where(eq(alerts.id, alert!.id));
    const record = await findAlertRecord(tx, alert!.id);
    await recordAudit(tx, who, { action: 'create', entity: 'alert', entityId: alert!.id, after: record });
    return { created: true, alert: alert!, record, wearer };
  });
}

/** Ends open alerts of one kind for a device (an offline alert ends when the device reports again). */
export async function endOpenAlerts(db: DbOrTx, deviceIds: string[], kind: AlertKind, at: Date): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .update(alerts)
    .set({ endedAt: at })
    .where(and(inArray(alerts.deviceId, deviceIds), eq(alerts.kind, kind), sql`${alerts.endedAt} is null`));
}
