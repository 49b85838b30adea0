// Named statements: the tracking core's per-batch statements are parsed and planned once per PostgreSQL connection
// instead of on every batch (decision 077). node-postgres prepares a statement the first time a connection sees its
// name and then only binds; PGlite runs it as any other statement.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

const dialect = new PgDialect();

/**
 * A statement's shape varies a little (an optional part, say), and each distinct text needs a name of its own: a name
 * reused for another text is an error in node-postgres. At most this many texts per name are prepared; a text beyond
 * them runs unnamed, so an unforeseen variation costs planning, never an unbounded cache on every connection.
 */
const MAX_TEXTS_PER_NAME = 16;
const namesByText = new Map<string, Map<string, string>>();

function nameFor(name: string, text: string): string | undefined {
  let texts = namesByText.get(name);
  if (!texts) namesByText.set(name, (texts = new Map()));
  const known = texts.get(text);
  if (known !== undefined || texts.size >= MAX_TEXTS_PER_NAME) return known;
  const named = `${name}-${texts.size + 1}`;
  texts.set(text, named);
  return named;
}

/**
 * `db.execute(query)` under a name: answers what `execute` answers (the driver's result, rows as objects). Only for
 * statements run many times with the same text and different parameters; a text built from values would be a new
 * statement each time.
 */
export async function executeNamed<Row>(db: DbOrTx, name: string, query: SQL): Promise<{ rows: Row[] }> {
  const built = dialect.sqlToQuery(query);
  const prepared = db._.session.prepareQuery(built, undefined, nameFor(name, built.sql), false);
  return (await prepared.execute()) as { rows: Row[] };
}
