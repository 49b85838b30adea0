// How long a built-in backup of this database will take, said before it starts (decision 113): the rows of every
// table (the planner's figure where the table was analysed, else counted) at the rate measured here and now on a
// sample of the biggest table, read through a cursor, written as backup lines and gzipped as the backup does. Only
// an estimate: nothing is refused for its size.
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { ROWS_PER_BATCH, formatLine } from './backup-file';
import type { SqlConnection } from './sql-connection';
import { forEachRow, listTables, quoteIdent, rowsQuery } from './table-catalog';

/** Rows timed for the rate: enough to pass the first round trips' cost, a fraction of a second to read. */
export const SAMPLE_ROWS = 10_000;

export interface BackupEstimate {
  tables: number;
  rows: number;
  /** The rate measured on the sample; null when every table is empty. */
  rowsPerSecond: number | null;
  seconds: number;
  sample: { table: string; rows: number };
}

export async function estimateBackup(connection: SqlConnection): Promise<BackupEstimate> {
  return connection.transaction(async (session) => {
    if (connection.kind === 'postgres') await session.query('set transaction isolation level repeatable read, read only');
    const tables = await listTables(session);
    if (tables.length === 0) return { tables: 0, rows: 0, rowsPerSecond: null, seconds: 0, sample: { table: '', rows: 0 } };
    const planned = await session.query<{ name: string; rows: number }>(
      // A partitioned table (positions, by day) has no figure of its own: its partitions', when all were analysed.
      `select c.relname as name, case when c.relkind = 'p' then (
         select case when bool_and(k.reltuples >= 0) then sum(k.reltuples) else -1 end
         from pg_inherits i join pg_class k on k.oid = i.inhrelid where i.inhparent = c.oid
       ) else c.reltuples end::float8 as rows
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`,
    );
    const plannedRows = new Map(planned.map((p) => [p.name, Number(p.rows)]));
    const rowsOf = new Map<string, number>();
    for (const table of tables) {
      let rows = plannedRows.get(table.name) ?? -1;
      // -1: never analysed (PGlite runs no autovacuum), so counted; a partitioned parent's figure is its partitions'.
      if (rows < 0) {
        const [counted] = await session.query<{ n: number }>(`select count(*)::float8 as n from public.${quoteIdent(table.name)}`);
        rows = Number(counted?.n ?? 0);
      }
      rowsOf.set(table.name, Math.round(rows));
    }
    const rows = [...rowsOf.values()].reduce((sum, n) => sum + n, 0);
    const biggest = tables.reduce((a, b) => ((rowsOf.get(b.name) ?? 0) > (rowsOf.get(a.name) ?? 0) ? b : a));

    const gzip = createGzip();
    gzip.resume();
    let sampled = 0;
    const started = process.hrtime.bigint();
    await forEachRow<{ r: string }>(session, `${rowsQuery(biggest)} limit ${SAMPLE_ROWS}`, ROWS_PER_BATCH, async ({ r }) => {
      sampled++;
      if (!gzip.write(formatLine({ kind: 'R', row: r }))) await once(gzip, 'drain');
    });
    gzip.end();
    await once(gzip, 'end');
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    const rowsPerSecond = sampled > 0 ? sampled / elapsed : null;
    return {
      tables: tables.length,
      rows,
      rowsPerSecond,
      seconds: rowsPerSecond ? rows / rowsPerSecond : 0,
      sample: { table: biggest.name, rows: sampled },
    };
  });
}

/** "under a second", "about 40 s", "about 12 min", "about 3 h 20 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The line the backup command prints before it starts. */
export function describeEstimate(estimate: BackupEstimate): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-GB');
  const rate = estimate.rowsPerSecond
    ? `, at ${n(estimate.rowsPerSecond)} rows/s measured just now on ${n(estimate.sample.rows)} rows of ${estimate.sample.table}`
    : '';
  return `Estimated time: ${formatDuration(estimate.seconds)} for about ${n(estimate.rows)} rows in ${estimate.tables} tables${rate}.`;
}
