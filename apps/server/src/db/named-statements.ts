// Named statements: the tracking core's per-batch statements are parsed and planned once per PostgreSQL connection
// instead of on every batch (decision 077), and their text is built once, when the module loads, instead of on every
// batch (decision 079: building it took about 3 % of the server's CPU at 3,700 fixes a second). node-postgres
// prepares a statement the first time a connection sees its name and then only binds; PGlite runs it as any other.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

const dialect = new PgDialect();
/** Each name's text: node-postgres refuses a name reused for another text on the same connection. */
const texts = new Map<string, string>();

/** A statement of fixed text that takes its values by name and answers its rows (as `db.execute` does). */
export type NamedStatement<Values extends Record<string, unknown>, Row> = (
  db: DbOrTx,
  values: Values,
) => Promise<{ rows: Row[] }>;

/**
 * Builds `query`, whose values are all `sql.placeholder(name)`, once; each run binds `values` to its placeholders. A
 * name stands for one text; declaring it again with another text is an error. A value left out is an error, not a
 * null.
 */
export function namedStatement<Values extends Record<string, unknown>, Row = Record<string, unknown>>(
  name: string,
  query: SQL,
): NamedStatement<Values, Row> {
  const built = dialect.sqlToQuery(query);
  const known = texts.get(name);
  if (known !== undefined && known !== built.sql)
    throw new Error(`The statement name ${name} is taken by another text`);
  texts.set(name, built.sql);
  return async (db, values) =>
    (await db._.session.prepareQuery(built, undefined, name, false).execute(values)) as { rows: Row[] };
}
