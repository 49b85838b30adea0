// A prisoner's location history: every fix of a range is read once; distance and geofence time are computed
// on all of them, and the points sent to the browser are thinned to a bounded number.
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { HISTORY_MAX_GAP_SECONDS, type HistoryAlert, type HistoryQuery, type HistoryResponse } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, geofences, prisoners } from '../../db/schema';
import { notFound } from '../../lib/http-errors';
import { prepareGeofence, thinIndexes, timeInGeofences, trackDistance, type PreparedGeofence } from './track-geometry';

/** The most alerts one history answer lists. */
const MAX_ALERTS = 1000;

interface FixRow {
  t: number;
  lat: number;
  lng: number;
  speed: number | null;
  accuracy: number | null;
}

export async function findPrisonerName(db: DbOrTx, prisonerId: number): Promise<string> {
  const [row] = await db
    .select({ first: prisoners.firstName, last: prisoners.lastName })
    .from(prisoners)
    .where(eq(prisoners.prisonerId, prisonerId));
  if (!row) throw notFound(`No prisoner with id ${prisonerId}`);
  return `${row.first} ${row.last}`.trim() || `Prisoner ${prisonerId}`;
}

/**
 * Every fix of a prisoner in [from, to], oldest first, as plain numbers. The scan is index-only (the covering
 * positions_prisoner_time_idx), and the fixes travel as one text value "t,lat,lng,speed,accuracy;..." because
 * tens of thousands of result rows cost more to send and parse than one string (bench/history measures it).
 * date_part gives a float8 epoch (extract would compute in slower numeric); float8 prints exactly.
 */
export async function readFixes(db: DbOrTx, prisonerId: number, from: Date, to: Date): Promise<FixRow[]> {
  const result = (await db.execute(sql`
    select string_agg(
      concat(round(date_part('epoch', recorded_at) * 1000)::bigint, ',', latitude, ',', longitude, ',', speed, ',', accuracy),
      ';' order by recorded_at) as fixes
    from positions
    where prisoner_id = ${prisonerId} and recorded_at >= ${from.toISOString()}::timestamptz and recorded_at <= ${to.toISOString()}::timestamptz`)) as unknown as {
    rows: { fixes: string | null }[];
  };
  const text = result.rows[0]?.fixes;
  if (!text) return [];
  const optional = (value: string | undefined) => (value ? Number(value) : null);
  return text.split(';').map((fix) => {
    const [t, lat, lng, speed, accuracy] = fix.split(',');
    return { t: Number(t), lat: Number(lat), lng: Number(lng), speed: optional(speed), accuracy: optional(accuracy) };
  });
}

async function loadGeofences(db: DbOrTx): Promise<PreparedGeofence[]> {
  const rows = await db
    .select({
      geofenceId: geofences.geofenceId,
      name: geofences.name,
      shape: geofences.shape,
      radius: geofences.radius,
      centerLat: geofences.centerLat,
      centerLng: geofences.centerLng,
      coordinates: geofences.coordinates,
    })
    .from(geofences);
  return rows.map(prepareGeofence).filter((fence): fence is PreparedGeofence => fence !== null);
}

async function alertsInRange(db: DbOrTx, prisonerId: number, from: Date, to: Date): Promise<HistoryAlert[]> {
  const rows = await db
    .select({
      id: alerts.id,
      alert_type: alerts.alertType,
      kind: alerts.kind,
      details: alerts.details,
      timestamp: alerts.timestamp,
      status: alerts.status,
    })
    .from(alerts)
    .where(and(eq(alerts.prisonerId, prisonerId), gte(alerts.timestamp, from), lte(alerts.timestamp, to)))
    .orderBy(asc(alerts.timestamp), asc(alerts.id))
    .limit(MAX_ALERTS);
  return rows.map((row) => ({
    ...row,
    alert_type: row.alert_type as HistoryAlert['alert_type'],
    status: row.status as HistoryAlert['status'],
    timestamp: row.timestamp.toISOString(),
  }));
}

export async function readHistory(db: DbOrTx, query: HistoryQuery): Promise<HistoryResponse> {
  const prisonerName = await findPrisonerName(db, query.prisoner_id);
  const from = new Date(query.from);
  const to = new Date(query.to);
  const [fixes, fences, rangeAlerts] = await Promise.all([
    readFixes(db, query.prisoner_id, from, to),
    loadGeofences(db),
    alertsInRange(db, query.prisoner_id, from, to),
  ]);
  const seconds = timeInGeofences(fixes, fences, HISTORY_MAX_GAP_SECONDS);
  const geofenceTime = fences
    .filter((fence) => seconds.has(fence.geofenceId))
    .map((fence) => ({ geofence_id: fence.geofenceId, name: fence.name, seconds: Math.round(seconds.get(fence.geofenceId)!) }))
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  const points = thinIndexes(fixes.length, query.max_points).map((index) => {
    const fix = fixes[index]!;
    return { t: new Date(fix.t).toISOString(), lat: fix.lat, lng: fix.lng, speed: fix.speed, accuracy: fix.accuracy };
  });
  return {
    prisoner_id: query.prisoner_id,
    prisoner_name: prisonerName,
    from: from.toISOString(),
    to: to.toISOString(),
    points,
    total: fixes.length,
    thinned: points.length < fixes.length,
    distance_m: Math.round(trackDistance(fixes) * 10) / 10,
    geofence_time: geofenceTime,
    alerts: rangeAlerts,
  };
}
