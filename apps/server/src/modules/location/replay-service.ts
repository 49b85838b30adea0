// Replay of everyone: every tracker's fixes of a window in the account's caseload, packed compactly
// (per device a flat [t, lat, lng, ...] with t after `from`), thinned per track above REPLAY_MAX_POINTS (decision 069),
// with the window's alerts and the geofences as they were.
import { sql, type SQL } from 'drizzle-orm';
import { REPLAY_MAX_ALERTS, REPLAY_MAX_POINTS, type ReplayAlert, type ReplayQuery, type ReplayResponse, type ReplayTrack } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import { geofencesAsTheyWere } from '../geofences/geofence-history';

/** Bytes per fix in the packed answer of the database: t, lat, lng as float8. */
const PACKED_FIX_BYTES = 24;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** Which fixes the replay plays: the window, the caseload, and the block or people asked for (either of them). */
function fixFilter(query: ReplayQuery, from: Date, to: Date, caseload: Caseload): SQL {
  const conditions: SQL[] = [
    sql`p.recorded_at >= ${from.toISOString()}::timestamptz and p.recorded_at <= ${to.toISOString()}::timestamptz`,
  ];
  const seen = nobodyOrInCaseload(sql`p.prisoner_id`, caseload);
  if (seen) conditions.push(seen);
  const chosen: SQL[] = [];
  if (query.block !== undefined) {
    chosen.push(sql`p.prisoner_id in (select bp.prisoner_id from prisoners bp join cells bc on bc.cell_id = bp.cell_id where bc.block = ${query.block})`);
  }
  if (query.prisoner_ids) chosen.push(sql`p.prisoner_id = any(${sql.param(query.prisoner_ids)}::int[])`);
  if (query.staff_ids) {
    chosen.push(sql`(p.prisoner_id is null and p.device_id in (select s.tracking_device_id from staff s where s.staff_id = any(${sql.param(query.staff_ids)}::int[])))`);
  }
  if (chosen.length > 0) conditions.push(sql`(${sql.join(chosen, sql` or `)})`);
  return sql.join(conditions, sql` and `);
}

/** 0 when every fix fits; otherwise a step that leaves each track at most REPLAY_MAX_POINTS / tracks fixes. */
async function thinningStep(db: DbOrTx, where: SQL, windowMs: number): Promise<number> {
  const [counted] = rowsOf<{ fixes: number | string; devices: number | string }>(
    await db.execute(sql`select count(*) as fixes, count(distinct p.device_id) as devices from positions p where ${where}`),
  );
  const fixes = Number(counted?.fixes ?? 0);
  const devices = Number(counted?.devices ?? 0);
  if (fixes <= REPLAY_MAX_POINTS) return 0;
  return Math.ceil((windowMs * devices) / REPLAY_MAX_POINTS);
}

interface PackedTrack {
  device_id: string;
  prisoner_id: number | null;
  fixes: Uint8Array | null;
}

async function packedTracks(db: DbOrTx, where: SQL, fromMs: number, stepMs: number): Promise<PackedTrack[]> {
  // The fixes travel packed in one binary value per device (as the history does): far cheaper than a row per fix.
  const fixes =
    stepMs === 0
      ? sql`select p.device_id, p.prisoner_id, p.recorded_at, p.latitude, p.longitude from positions p where ${where}`
      : sql`select distinct on (p.device_id, floor(date_part('epoch', p.recorded_at) * 1000 / ${stepMs}))
              p.device_id, p.prisoner_id, p.recorded_at, p.latitude, p.longitude
            from positions p where ${where}
            order by p.device_id, floor(date_part('epoch', p.recorded_at) * 1000 / ${stepMs}), p.recorded_at`;
  return rowsOf<PackedTrack>(
    await db.execute(sql`
      select f.device_id, max(f.prisoner_id) as prisoner_id,
        string_agg(float8send(date_part('epoch', f.recorded_at) * 1000 - ${fromMs}::float8) || float8send(f.latitude) || float8send(f.longitude),
          ''::bytea order by f.recorded_at) as fixes
      from (${fixes}) f group by f.device_id order by f.device_id`),
  );
}

function unpack(bytes: Uint8Array | null): number[] {
  if (!bytes) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const points: number[] = new Array((bytes.byteLength / PACKED_FIX_BYTES) * 3);
  for (let i = 0, o = 0; o < bytes.byteLength; o += PACKED_FIX_BYTES) {
    points[i++] = Math.round(view.getFloat64(o));
    // Six decimals are a tenth of a metre: enough for a map, a third shorter in JSON.
    points[i++] = Math.round(view.getFloat64(o + 8) * 1e6) / 1e6;
    points[i++] = Math.round(view.getFloat64(o + 16) * 1e6) / 1e6;
  }
  return points;
}

interface Wearer {
  device_id: string;
  prisoner_id: number | null;
  staff_id: number | null;
  name: string | null;
  block: string | null;
  prison_number: string | null;
  cell_id: string | null;
}

/** Who each track belongs to: the prisoner of its fixes, else the staff member wearing the tracker now. */
async function wearers(db: DbOrTx, tracks: PackedTrack[]): Promise<Map<string, Wearer>> {
  if (tracks.length === 0) return new Map();
  const deviceIds = tracks.map((track) => track.device_id);
  const prisonerIds = tracks.map((track) => track.prisoner_id ?? 0);
  const rows = rowsOf<Wearer>(
    await db.execute(sql`
      select t.device_id,
        pr.prisoner_id, st.staff_id,
        coalesce(nullif(trim(pr.first_name || ' ' || pr.last_name), ''), nullif(trim(st.first_name || ' ' || st.last_name), ''), d.name) as name,
        c.block, pr.prison_number, pr.cell_id
      from unnest(${sql.param(deviceIds)}::text[], ${sql.param(prisonerIds)}::int[]) as t(device_id, prisoner_id)
      left join prisoners pr on pr.prisoner_id = t.prisoner_id
      left join cells c on c.cell_id = pr.cell_id
      left join staff st on t.prisoner_id = 0 and st.tracking_device_id = t.device_id
      left join devices d on d.id = t.device_id`),
  );
  return new Map(rows.map((row) => [row.device_id, row]));
}

async function windowAlerts(db: DbOrTx, query: ReplayQuery, from: Date, to: Date, caseload: Caseload, tracks: ReplayTrack[]): Promise<ReplayAlert[]> {
  const conditions: SQL[] = [sql`a.timestamp >= ${from.toISOString()}::timestamptz and a.timestamp <= ${to.toISOString()}::timestamptz`];
  const seen = nobodyOrInCaseload(sql`a.prisoner_id`, caseload);
  if (seen) conditions.push(seen);
  if (query.block !== undefined || query.prisoner_ids || query.staff_ids) {
    // A chosen block or people: their alerts only (by person or by tracker).
    const prisonerIds = tracks.flatMap((track) => (track.prisoner_id === null ? [] : [track.prisoner_id]));
    const deviceIds = tracks.map((track) => track.device_id);
    conditions.push(
      sql`(a.prisoner_id = any(${sql.param([...prisonerIds, ...(query.prisoner_ids ?? [])])}::int[]) or a.device_id = any(${sql.param(deviceIds)}::text[]))`,
    );
  }
  const rows = rowsOf<{ id: number; t: number; alert_type: ReplayAlert['alert_type']; kind: string; details: string; prisoner_id: number | null; device_id: string | null; closed_t: number | string | null }>(
    await db.execute(sql`
      select a.id, (date_part('epoch', a.timestamp) * 1000 - ${from.getTime()}::float8) as t, a.alert_type, a.kind, a.details, a.prisoner_id, a.device_id,
        (date_part('epoch', least(a.acknowledged_at, a.resolved_at)) * 1000 - ${from.getTime()}::float8) as closed_t
      from alerts a where ${sql.join(conditions, sql` and `)}
      order by a.timestamp, a.id limit ${REPLAY_MAX_ALERTS}`),
  );
  return rows.map((row) => ({ ...row, t: Math.round(Number(row.t)), closed_t: row.closed_t === null ? null : Math.round(Number(row.closed_t)) }));
}

export async function readReplay(db: DbOrTx, query: ReplayQuery, caseload: Caseload): Promise<ReplayResponse> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  const where = fixFilter(query, from, to, caseload);
  const stepMs = await thinningStep(db, where, to.getTime() - from.getTime());
  const packed = await packedTracks(db, where, from.getTime(), stepMs);
  const byDevice = await wearers(db, packed);
  const tracks: ReplayTrack[] = packed.map((track) => {
    const wearer = byDevice.get(track.device_id);
    const prisonerId = wearer?.prisoner_id ?? null;
    const staffId = wearer?.staff_id ?? null;
    return {
      device_id: track.device_id,
      wearer: prisonerId !== null ? 'prisoner' : staffId !== null ? 'staff' : 'none',
      prisoner_id: prisonerId,
      staff_id: staffId,
      name: wearer?.name ?? track.device_id,
      block: wearer?.block ?? null,
      prison_number: prisonerId !== null ? (wearer?.prison_number ?? null) : null,
      cell_id: prisonerId !== null ? (wearer?.cell_id ?? null) : null,
      points: unpack(track.fixes),
    };
  });
  const [alerts, zones] = await Promise.all([
    windowAlerts(db, query, from, to, caseload, tracks),
    geofencesAsTheyWere(db, from, to),
  ]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    step_ms: stepMs,
    tracks,
    alerts,
    geofences: zones.geofences,
    geofence_changes: zones.changes.map((change) => ({
      t: change.at.getTime() - from.getTime(),
      geofence_id: change.geofenceId,
      geofence: change.geofence,
    })),
  };
}
