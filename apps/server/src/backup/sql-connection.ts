// One small SQL surface over both engines, so backup and restore are one code path on PGlite and PostgreSQL.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';

/** Statements inside one transaction. */
export interface SqlSession {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** A connection that runs a function inside one transaction (rolled back when it throws). */
export interface SqlConnection {
  kind: 'pglite' | 'postgres';
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function sessionOf(target: PGlite | Transaction | pg.Client): SqlSession {
  return {
    query: async <Row>(text: string, params?: unknown[]) => {
      const result = await (target as PGlite).query<Row>(text, params);
      return result.rows;
    },
  };
}

/**
 * PGlite's own transaction: it holds the instance, so the server's other statements wait until it ends. That is what
 * makes the copy consistent on a single-connection engine (decision 058). `close` leaves the instance open.
 */
export function pgliteConnection(client: PGlite): SqlConnection {
  return {
    kind: 'pglite',
    transaction: (work) => client.transaction((tx) => work(sessionOf(tx))),
    close: async () => undefined,
  };
}

/** A PostgreSQL connection of its own (not the server's pool), ended by `close`. */
export async function postgresConnection(connectionString: string, applicationName = 'prison-backup'): Promise<SqlConnection> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000, application_name: applicationName });
  await client.connect();
  return postgresConnectionOver(client);
}

/** A transaction surface over a connected client; `close` ends it. */
export function postgresConnectionOver(client: pg.Client): SqlConnection {
  const session = sessionOf(client);
  return {
    kind: 'postgres',
    transaction: async (work) => {
      await client.query('begin');
      try {
        const result = await work(session);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      }
    },
    close: () => client.end(),
  };
}
