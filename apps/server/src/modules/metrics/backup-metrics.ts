// The age of the last good backup of each kind, read when Prometheus scrapes (decision 113):
// `prison_backup_age_seconds{kind="logical"}` from the newest built-in backup's audit entry (the command's or the
// timer's, whichever process wrote it), and with PGBACKREST_STANZA `{kind="pgbackrest"}` from `pgbackrest info`.
// The alert rule takes the youngest of them: a site is in alarm when no kind has a good backup of the last 26 hours.
import type { FastifyInstance } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { newestLogicalBackupAt } from '../../backup/last-logical-backup';
import { readPgBackRestInfo, type PgBackRestBackup } from '../../backup/pgbackrest-info';

/** `pgbackrest info` is a process and reads the repository: asked at most once a minute, whatever the scrape rate. */
const PGBACKREST_INFO_EVERY_MS = 60_000;

export function registerBackupAge(app: FastifyInstance, registers: Registry[]): void {
  // Before the first backup the age counts from this start: a new installation is not in alarm before one is due.
  const started = Date.now();
  let logicalAt: number | null = null;
  const readLogical = async () => {
    // While the database is down the last known value stays; prison_database_up says why.
    if (app.databaseHealth.status !== 'ok') return;
    try {
      logicalAt = (await newestLogicalBackupAt(app.db))?.getTime() ?? started;
    } catch (error) {
      app.databaseHealth.failed(error, 'metrics');
    }
  };

  const stanza = app.config.PGBACKREST_STANZA;
  let pgbackrest: { askedAt: number; newest: PgBackRestBackup | null | 'failed' } | null = null;
  let lastProblem = '';
  const readPgBackRest = async (): Promise<number | null> => {
    if (!stanza) return null;
    if (!pgbackrest || Date.now() - pgbackrest.askedAt >= PGBACKREST_INFO_EVERY_MS) {
      const askedAt = Date.now();
      const newest = await readPgBackRestInfo(stanza).catch((error: Error) => {
        // Logged when it changes, not at every scrape; the series is then absent, so only another kind can be young.
        if (error.message !== lastProblem) app.log.warn({ stanza, err: error.message }, 'pgbackrest info failed: the pgBackRest backup age is unknown');
        lastProblem = error.message;
        return 'failed' as const;
      });
      if (newest !== 'failed') lastProblem = '';
      pgbackrest = { askedAt, newest };
    }
    if (pgbackrest.newest === 'failed') return null;
    return pgbackrest.newest?.stoppedAt.getTime() ?? started;
  };

  new Gauge({
    name: 'prison_backup_age_seconds',
    help: 'Seconds since the last good backup of each kind: logical (npm run backup or BACKUP_DIR), pgbackrest (PGBACKREST_STANZA); counted from this process\'s start while there is none',
    labelNames: ['kind'],
    registers,
    async collect() {
      const [, pgbackrestAt] = await Promise.all([readLogical(), readPgBackRest()]);
      const age = (at: number) => Math.max(0, (Date.now() - at) / 1000);
      if (logicalAt !== null) this.labels('logical').set(age(logicalAt));
      if (pgbackrestAt !== null) this.labels('pgbackrest').set(age(pgbackrestAt));
      else this.remove('pgbackrest');
    },
  });
}
