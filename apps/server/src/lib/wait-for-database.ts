// At start, a PostgreSQL server that does not answer yet (decision 056): instead of exiting, the process holds its
// ports with a not-ready stand-in and tries again every second, logging one line per kind of failure per 10 s (never
// the password); when the database answers it migrates and the real server takes the ports. Errors that waiting
// cannot cure (a wrong password, a failing migration) still stop the start.
import type { FastifyServerOptions } from 'fastify';
import type { Database, MigrationReport } from '../db/client';
import { databaseErrorOf, databaseUnavailableReason } from './database-errors';
import type { NotReadyStandIn, StandInPorts } from './not-ready-stand-in';
import { createNotReadyStandIn } from './not-ready-stand-in';
import { RateLimitedLog } from './rate-limited-log';

export const DATABASE_RETRY_MS = 1_000;

/** Where DATABASE_URL points, without user or password: `host:port/database`. */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Why waiting may help: unreachable, starting up, or (created by `npm run cluster` once the server answers) missing. */
function reasonToWait(error: unknown): string | null {
  const unreachable = databaseUnavailableReason(error);
  if (unreachable) return unreachable;
  return databaseErrorOf(error)?.code === '3D000' ? '3D000 database does not exist yet' : null;
}

export interface WaitOptions {
  databaseUrl: string;
  ports: StandInPorts;
  logger: FastifyServerOptions['logger'];
  retryMs?: number;
}

/**
 * Migrates `database` once it answers; meanwhile the stand-in holds the ports. Resolves with what the migration
 * applied, the ports free again.
 */
export async function migrateWhenReachable(database: Database, options: WaitOptions): Promise<MigrationReport> {
  let standIn: NotReadyStandIn | null = null;
  let failures: RateLimitedLog | null = null;
  const started = Date.now();
  try {
    for (;;) {
      try {
        const report = await database.migrate();
        if (standIn) standIn.log.warn(`database ${databaseAddress(options.databaseUrl)} answers after ${Math.round((Date.now() - started) / 1000)} s: starting`);
        return report;
      } catch (error) {
        const reason = reasonToWait(error);
        if (!reason) throw error;
        if (!standIn) {
          standIn = createNotReadyStandIn(options.ports, options.logger);
          await standIn.listen();
          failures = new RateLimitedLog(standIn.log);
        }
        failures!.error(
          `database unreachable at start: ${reason} (${databaseAddress(options.databaseUrl)}); trying again every ${(options.retryMs ?? DATABASE_RETRY_MS) / 1000} s, /readyz answers 503 until it answers`,
        );
        await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? DATABASE_RETRY_MS));
      }
    }
  } finally {
    failures?.stop();
    await standIn?.close();
  }
}
