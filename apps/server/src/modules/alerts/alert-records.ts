// Reading alerts: one alert as the API answers it, the live map's picture per prisoner and its officers in danger,
// the home page's newest and the alerts screen's pages with their counts, each within the reader's caseload.
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  AlertListQuery,
  AlertPage,
  AlertRecord,
  AlertStatus,
  AlertType,
  LiveMapPrisonerAlerts,
  LiveMapStaffInDanger,
  ShowAlertEvent,
} from '@prison/shared';
import {
  ALERT_STATUSES,
  ALERT_TYPES,
  ALERTS_UNPAGED_NEWEST,
  ALERTS_UNPAGED_OPEN_MAX,
  alertPaging,
  LIVE_MAP_ALERTS_LISTED,
  totalPages,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { admins, alerts, cells, prisoners, staff } from '../../db/schema';
import { nobodyOrInCaseload, prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { notFound } from '../../lib/http-errors';
import type { AlertKind } from '../../tracking/ports';
import { audienceOf, sameAudience, type Audience } from '../../lib/caseload-audience';
import { showAlertEvent } from './alert-store';

const acknowledger = alias(admins, 'acknowledger');
const resolver = alias(admins, 'resolver');
const raiser = alias(admins, 'raiser');
/** The member of staff an alert is about: named by the alert (a duress), else the wearer of its tracker (decision 100). */
const subject = alias(staff, 'subject');
const aboutStaff = sql`(${subject.staffId} = ${alerts.staffId} or (${alerts.staffId} is null and ${alerts.prisonerId} is null and ${subject.trackingDeviceId} = ${alerts.deviceId}))`;

/** Every field of an alert as the API answers it: its wearer's name and cell, who acknowledged and resolved it. */
export function selectAlertRecords(db: DbOrTx) {
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
      prisonNumber: prisoners.prisonNumber,
      cellId: prisoners.cellId,
      acknowledgedBy: acknowledger.username,
      acknowledgedAt: alerts.acknowledgedAt,
      resolvedBy: resolver.username,
      resolvedAt: alerts.resolvedAt,
      note: alerts.note,
      repeatCount: alerts.repeatCount,
      lastRepeatAt: alerts.lastRepeatAt,
      needsAction: alerts.needsAction,
      nearbyStaff: alerts.nearbyStaff,
      staffFirstName: subject.firstName,
      staffLastName: subject.lastName,
      raisedById: alerts.raisedBy,
      raisedByName: raiser.name,
      responding: alerts.responding,
    })
    .from(alerts)
    .leftJoin(prisoners, eq(prisoners.prisonerId, alerts.prisonerId))
    .leftJoin(acknowledger, eq(acknowledger.id, alerts.acknowledgedBy))
    .leftJoin(resolver, eq(resolver.id, alerts.resolvedBy))
    .leftJoin(raiser, eq(raiser.id, alerts.raisedBy))
    .leftJoin(subject, aboutStaff);
}

type AlertRow = Awaited<ReturnType<typeof selectAlertRecords>>[number];

/** The staff member's name from his record, else the name of the account that raised the duress; null: not staff. */
function staffNameOf(row: AlertRow): string | null {
  const recorded = [row.staffFirstName, row.staffLastName].filter(Boolean).join(' ');
  return recorded || row.raisedByName || null;
}

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
    prison_number: row.prisonNumber,
    cell_id: row.cellId,
    acknowledged_by: row.acknowledgedBy,
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    resolved_by: row.resolvedBy,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    note: row.note,
    // The column counts the repeats after the first; the API counts every occurrence.
    repeat_count: row.repeatCount + 1,
    last_repeat_at: row.lastRepeatAt?.toISOString() ?? null,
    last_seen_at: (row.lastRepeatAt ?? row.timestamp).toISOString(),
    needs_action: row.needsAction,
    // Only on a staff SOS (decision 072): every other alert reads as before.
    ...(row.nearbyStaff ? { nearby_staff: row.nearbyStaff } : {}),
    // Only on an alert about staff, a duress and who is responding (decision 100).
    ...(staffNameOf(row) ? { staff_name: staffNameOf(row)! } : {}),
    ...(row.responding?.length ? { responding: row.responding } : {}),
    ...(row.raisedById !== null ? { raised_by_id: row.raisedById } : {}),
  };
}

/** A stored alert's live event, read back (another process raised it; cluster/alert-feed.ts). Null: gone. */
export async function readShowAlertEvent(
  db: DbOrTx,
  id: number,
): Promise<(ShowAlertEvent & { block?: string | null }) | null> {
  const [row] = await selectAlertRecords(db).where(eq(alerts.id, id));
  if (!row) return null;
  const block =
    row.cellId === null
      ? null
      : ((await db.select({ block: cells.block }).from(cells).where(eq(cells.cellId, row.cellId)))[0]?.block ?? null);
  const wearer = {
    prisonerName: row.prisonerId === null ? null : `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim(),
    prisonNumber: row.prisonNumber,
    cellId: row.cellId,
    block,
  };
  return showAlertEvent(
    { ...row, alertType: row.alertType as AlertType, kind: row.kind as AlertKind, at: row.timestamp },
    wearer,
  );
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
 * level, how many are open and the first LIVE_MAP_ALERTS_LISTED of them, worst first, then newest. Events (an
 * Informational zone entry) mark the prisoner in zone but are not open work.
 */
export async function listLiveMapAlerts(db: DbOrTx, caseload: Caseload = []): Promise<LiveMapPrisonerAlerts[]> {
  const rank = sql`case alert_type when 'Critical' then 0 when 'Warning' then 1 else 2 end`;
  const result = (await db.execute(sql`
    select prisoner_id,
           bool_or(kind = 'geofence' and ended_at is null and status <> 'Resolved') as in_violation,
           min(${rank}) filter (where kind = 'geofence' and ended_at is null and status <> 'Resolved')
             as violation_rank,
           count(*) filter (where status = 'New' and needs_action)::int as open_count,
           min(${rank}) filter (where status = 'New' and needs_action) as worst_rank,
           coalesce(to_json((array_agg(
             json_build_object('id', id, 'alert_type', alert_type, 'details', details, 'timestamp', timestamp)
             order by ${rank}, timestamp desc, id desc
           ) filter (where status = 'New' and needs_action))[1:${sql.raw(String(LIVE_MAP_ALERTS_LISTED))}]), '[]'::json) as open
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
 * The open (not resolved) staff SOS and duress alerts with the nearest staff at the alarm, newest first (decision 072). About
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
    .where(
      and(
        // A tracker's SOS and a duress of an officer with a tracker (decision 100).
        inArray(alerts.kind, ['sos', 'duress']),
        ne(alerts.status, 'Resolved'),
        isNotNull(alerts.nearbyStaff),
        isNotNull(alerts.deviceId),
      ),
    )
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
  const rows = await selectAlertRecords(db)
    .where(nobodyOrInCaseload(alerts.prisonerId, caseload))
    .orderBy(desc(alerts.timestamp), desc(alerts.id))
    .limit(limit);
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
  if (query.needs_action) filters.push(eq(alerts.needsAction, query.needs_action === 'true'));
  return filters;
}

/**
 * The unpaged answer (no `page`, no `limit`: the spec's client, which counts what comes back): every open Critical and
 * Warning, at most ALERTS_UNPAGED_OPEN_MAX of them (the partial open-Critical index and the status index find them),
 * and the newest ALERTS_UNPAGED_NEWEST; one list, newest first. Two bounded reads, so its cost never grows with the
 * table.
 */
async function unpagedAlerts(db: DbOrTx, where: SQL | undefined) {
  const newestFirst = [desc(alerts.timestamp), desc(alerts.id)];
  const openAlarm = and(eq(alerts.status, 'New'), inArray(alerts.alertType, ['Critical', 'Warning']));
  const [open, newest] = await Promise.all([
    selectAlertRecords(db)
      .where(where ? and(where, openAlarm) : openAlarm)
      .orderBy(...newestFirst)
      .limit(ALERTS_UNPAGED_OPEN_MAX),
    selectAlertRecords(db).where(where).orderBy(...newestFirst).limit(ALERTS_UNPAGED_NEWEST),
  ]);
  const seen = new Set(newest.map((row) => row.id));
  const rows = [...newest, ...open.filter((row) => !seen.has(row.id))];
  return rows.sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime() || b.id - a.id);
}

/**
 * Newest first, paginated, with counts over the filtered set; without `page` and `limit`, the unpaged answer above
 * (one page of it). One grouped count (per type and status, at most nine rows) beside the list gives every count
 * (decision 029):
 * - `counts`: per type over every filter but the type itself (the first version's meaning, which the layout's
 *   open-alert counts rely on: one request for the open Criticals and every level's open count);
 * - `filteredCounts`: per type over every filter, the type included (the alerts screen's header);
 * - `statusCounts`: per status over every filter.
 */
export async function listPrisonerAlerts(
  db: DbOrTx,
  query: AlertListQuery,
  caseload: Caseload = [],
): Promise<AlertPage> {
  const base = listFilters(query, caseload);
  const filters = query.alert_type ? [...base, eq(alerts.alertType, query.alert_type)] : base;
  const where = filters.length ? and(...filters) : undefined;
  const countWhere = base.length ? and(...base) : undefined;
  const paging = alertPaging(query);
  const [rows, grouped] = await Promise.all([
    paging
      ? selectAlertRecords(db)
          .where(where)
          .orderBy(desc(alerts.timestamp), desc(alerts.id))
          .limit(paging.limit)
          .offset((paging.page - 1) * paging.limit)
      : unpagedAlerts(db, where),
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
    currentPage: paging?.page ?? 1,
    totalPages: paging ? totalPages(total, paging.limit) : 1,
    totalAlerts: total,
    counts,
    filteredCounts,
    statusCounts,
  };
}

/**
 * These alerts grouped by who may see them (decision 093): their prisoner's block as it is now (no cell: the accounts of
 * every block), everyone for an alert about nobody. One query; an id that is gone is left out.
 */
export async function alertAudiences(db: DbOrTx, ids: readonly number[]): Promise<{ audience: Audience; ids: number[] }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: alerts.id, prisonerId: alerts.prisonerId, block: cells.block })
    .from(alerts)
    .leftJoin(prisoners, eq(prisoners.prisonerId, alerts.prisonerId))
    .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
    .where(inArray(alerts.id, [...ids]))
    .orderBy(alerts.id);
  const groups: { audience: Audience; ids: number[] }[] = [];
  for (const row of rows) {
    const audience = audienceOf(row);
    const group = groups.find((g) => sameAudience(g.audience, audience));
    if (group) group.ids.push(row.id);
    else groups.push({ audience, ids: [row.id] });
  }
  return groups;
}
