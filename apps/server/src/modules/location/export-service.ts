// Export of a range's fixes as GPX 1.1 or CSV, read in keyset-paged chunks so a long range never sits in memory.
import { sql } from 'drizzle-orm';
import type { HistoryExportQuery } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { csvLine } from '../../lib/csv';

const CHUNK_SIZE = 5000;

interface ExportRow {
  recorded_at: string;
  lat: number;
  lng: number;
  speed: number | null;
  accuracy: number | null;
  altitude: number | null;
  bearing: number | null;
  battery: number | null;
  device_id: string;
  /** recorded_at at full precision, for the keyset cursor. */
  cursor_at: string;
}

/** All fixes of the range, oldest first, one chunk at a time (keyset on recorded_at, then the device: the key). */
async function* fixChunks(db: DbOrTx, prisonerId: number, from: Date, to: Date): AsyncGenerator<ExportRow[]> {
  let after: { at: string; device: string } | null = null;
  for (;;) {
    const cursor = after ? sql`and (recorded_at, device_id) > (${after.at}::timestamptz, ${after.device})` : sql``;
    const result = (await db.execute(sql`
      select to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at,
        latitude as lat, longitude as lng, speed, accuracy, altitude, bearing, battery, device_id,
        recorded_at::text as cursor_at
      from positions
      where prisoner_id = ${prisonerId} and recorded_at >= ${from.toISOString()}::timestamptz
        and recorded_at <= ${to.toISOString()}::timestamptz ${cursor}
      order by recorded_at, device_id
      limit ${CHUNK_SIZE}`)) as unknown as { rows: ExportRow[] };
    if (result.rows.length === 0) return;
    yield result.rows;
    if (result.rows.length < CHUNK_SIZE) return;
    const last = result.rows[result.rows.length - 1]!;
    after = { at: last.cursor_at, device: last.device_id };
  }
}

const xmlEscape = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export const CSV_HEADER = 'time,latitude,longitude,speed,accuracy,altitude,bearing,battery,device_id';

export async function* exportLines(
  db: DbOrTx,
  query: HistoryExportQuery,
  prisonerName: string,
): AsyncGenerator<string> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  const chunks = fixChunks(db, query.prisoner_id, from, to);
  if (query.format === 'csv') {
    yield `${CSV_HEADER}\n`;
    for await (const rows of chunks) {
      yield (
        rows
          .map((r) => csvLine([r.recorded_at, r.lat, r.lng, r.speed, r.accuracy, r.altitude, r.bearing, r.battery, r.device_id]))
          .join('\n') + '\n'
      );
    }
    return;
  }
  const name = xmlEscape(`${prisonerName} (prisoner ${query.prisoner_id})`);
  yield (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gpx version="1.1" creator="Prison Control" xmlns="http://www.topografix.com/GPX/1/1">\n' +
    `  <metadata><name>${name}</name><time>${new Date().toISOString()}</time></metadata>\n` +
    `  <trk><name>${name}</name><trkseg>\n`
  );
  for await (const rows of chunks) {
    yield rows
      .map((r) => {
        const ele = r.altitude === null ? '' : `<ele>${r.altitude}</ele>`;
        return `    <trkpt lat="${r.lat}" lon="${r.lng}">${ele}<time>${r.recorded_at}</time></trkpt>\n`;
      })
      .join('');
  }
  yield '  </trkseg></trk>\n</gpx>\n';
}

/** e.g. track-prisoner-12-20260131T080000Z-20260131T090000Z.gpx */
export function exportFilename(query: HistoryExportQuery): string {
  const compact = (iso: string) =>
    new Date(iso)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/[-:]/g, '');
  return `track-prisoner-${query.prisoner_id}-${compact(query.from)}-${compact(query.to)}.${query.format}`;
}

export const EXPORT_CONTENT_TYPES = {
  gpx: 'application/gpx+xml; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
} as const;
