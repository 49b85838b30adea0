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

/** Bytes per fix in the packed answer: t, lat, lng as float8, speed and accuracy as float4 (NaN = none). */
const PACKED_FIX_BYTES = 32;

/**
 * Every fix of a prisoner in [from, to], oldest first, as plain numbers. The scan is index-only (the covering
 * positions_prisoner_time_idx), and the fixes travel packed in one binary value (float8send/float4send, big-endian):
 * tens of thousands of result rows, or floats printed as text, cost far more to send and parse (bench/history).
 */
export async function readFixes(db: DbOrTx, prisonerId: number, from: Date, to: Date): Promise<FixRow[]> {
  const result = (await db.execute(sql`
    select string_agg(
      float8send(date_part('epoch', recorded_at) * 1000) || float8send(latitude) || float8send(longitude)
        || coalesce(float4send(speed), decode('7fc00000', 'hex')) || coalesce(float4send(accuracy), decode('7fc00000', 'hex')),
      ''::bytea order by recorded_at) as fixes
    from positions
    where prisoner_id = ${prisonerId} and recorded_at >= ${from.toISOString()}::timestamptz and recorded_at <= ${to.toISOString()}::timestamptz`)) as unknown as {
    rows: { fixes: Uint8Array | null }[];
  };
  const bytes = result.rows[0]?.fixes;
  if (!bytes) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fixes: FixRow[] = new Array(bytes.byteLength / PACKED_FIX_BYTES);
  for (let i = 0, o = 0; i < fixes.length; i++, o += PACKED_FIX_BYTES) {
    const speed = view.getFloat32(o + 24);
    const accuracy = view.getFloat32(o + 28);
    fixes[i] = {
      t: Math.round(view.getFloat64(o)),
      lat: view.getFloat64(o + 8),
      lng: view.getFloat64(o + 16),
      speed: Number.isNaN(speed) ? null : speed,
      accuracy: Number.isNaN(accuracy) ? null : accuracy,
    };
  }
  return fixes;
}

/** A float4 as the database prints it (1.1, not 1.100000023841858). */
const real = (value: number | null) => (value === null ? null : Number(value.toPrecision(7)));

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
    .map((fence) => ({
      geofence_id: fence.geofenceId,
      name: fence.name,
      seconds: Math.round(seconds.get(fence.geofenceId)!),
    }))
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  const points = thinIndexes(fixes.length, query.max_points).map((index) => {
    const fix = fixes[index]!;
    return {
      t: new Date(fix.t).toISOString(),
      lat: fix.lat,
      lng: fix.lng,
      speed: real(fix.speed),
      accuracy: real(fix.accuracy),
    };
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
