// Every table of the application's schema, read from the database's catalog (never listed by hand): columns, key,
// the order that satisfies foreign keys, and the sequences. Backup, restore and their tests all enumerate from here.
import type { SqlSession } from './sql-connection';

export interface TableShape {
  name: string;
  /** Stored columns in table order (generated ones are left out: the database computes them). */
  columns: string[];
  /** Primary key columns, in key order; empty when the table has none (rows are then ordered by their text). */
  key: string[];
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Tables of the public schema, parents before children (foreign keys), then by name. A partitioned table counts once,
 * by its own name: its partitions' rows are its rows, and their names differ from one database to the next.
 */
export async function listTables(session: SqlSession): Promise<TableShape[]> {
  const tables = await session.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  const links = await session.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent from pg_constraint k
     join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
     join pg_namespace n on n.oid = child.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const shapes: TableShape[] = [];
  for (const { name } of tables) {
    const relation = `public.${quoteIdent(name)}`;
    const columns = await session.query<{ name: string }>(
      `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped
       and attgenerated = '' order by attnum`,
      [relation],
    );
    const key = await session.query<{ name: string }>(
      `select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       where i.indrelid = $1::regclass and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`,
      [relation],
    );
    shapes.push({ name, columns: columns.map((c) => c.name), key: key.map((k) => k.name) });
  }
  return orderByForeignKeys(shapes, links);
}

function orderByForeignKeys(tables: TableShape[], links: { child: string; parent: string }[]): TableShape[] {
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const byName = new Map(tables.map((t) => [t.name, t]));
  const visit = (table: TableShape) => {
    if (placed.has(table.name) || visiting.has(table.name)) return; // a cycle: left to the one transaction
    visiting.add(table.name);
    for (const link of links) if (link.child === table.name && byName.has(link.parent)) visit(byName.get(link.parent)!);
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

/** The statement that reads a table's rows as JSON text in a stable order (its key, else the row's text). */
export function rowsQuery(table: TableShape): string {
  const columns = table.columns.map(quoteIdent).join(', ');
  const order = table.key.length > 0 ? table.key.map((k) => `x.${quoteIdent(k)}`).join(', ') : 'x::text';
  return `select row_to_json(x)::text as r from (select ${columns} from public.${quoteIdent(table.name)}) x order by ${order}`;
}

export interface SequenceValue {
  name: string;
  /** null when the sequence was never used. */
  lastValue: string | null;
}

export async function listSequences(session: SqlSession): Promise<SequenceValue[]> {
  const rows = await session.query<{ name: string; last_value: string | number | null }>(
    `select sequencename as name, last_value from pg_sequences where schemaname = 'public' order by sequencename`,
  );
  return rows.map((r) => ({ name: r.name, lastValue: r.last_value === null ? null : String(r.last_value) }));
}

export interface AppliedMigration {
  hash: string;
  createdAt: string;
}

/** Migrations applied to this database (drizzle's own table), oldest first; none when it was never migrated. */
export async function appliedMigrations(session: SqlSession): Promise<AppliedMigration[]> {
  const exists = await session.query<{ found: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as found`);
  if (!exists[0]?.found) return [];
  const rows = await session.query<{ hash: string; created_at: string | number }>(
    'select hash, created_at from drizzle.__drizzle_migrations order by created_at, id',
  );
  return rows.map((r) => ({ hash: r.hash, createdAt: String(r.created_at) }));
}

/** Runs `each` over a query's rows fetched through a cursor (inside a transaction), so a big table never sits in memory. */
export async function forEachRow<Row>(session: SqlSession, query: string, batchSize: number, each: (row: Row) => void | Promise<void>): Promise<void> {
  await session.query(`declare each_row no scroll cursor for ${query}`);
  for (;;) {
    const batch = await session.query<Row>(`fetch ${batchSize} from each_row`);
    for (const row of batch) await each(row);
    if (batch.length < batchSize) break;
  }
  await session.query('close each_row');
}
