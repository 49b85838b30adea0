// What a running server does for backups (decision 058): on PGlite, the backup socket in DATA_DIR for
// `npm run backup`; with BACKUP_DIR, scheduled backups (the leader's job in a cluster).
import type { App } from '../app';
import { serveBackups, type BackupSocket } from './backup-socket';
import { startScheduledBackups, type ScheduledBackups } from './scheduled-backups';
import { pgliteConnection, postgresConnection, type SqlConnection } from './sql-connection';

export interface ServerBackups {
  stop(): Promise<void>;
}

/** `key`: the backup key (BACKUP_KEY, else the secret key; lib/secret-key.ts). */
export async function startServerBackups(app: App, key: Buffer): Promise<ServerBackups> {
  const { config, database } = app;
  const embedded = database.pglite;
  const connect = async (): Promise<SqlConnection> =>
    embedded ? pgliteConnection(embedded) : postgresConnection(config.DATABASE_URL!, `prison-backup ${app.cluster.node}`);
  let socket: BackupSocket | undefined;
  if (embedded) {
    try {
      socket = await serveBackups(pgliteConnection(embedded), config.DATA_DIR, key, app.log);
    } catch (error) {
      // E.g. a DATA_DIR path too long for a Unix socket: the server still serves; backups then need it stopped.
      app.log.warn({ err: error, dataDir: config.DATA_DIR }, 'backup socket not available: `npm run backup` works only while the server is stopped');
    }
  }
  let scheduled: ScheduledBackups | undefined;
  if (config.BACKUP_DIR) {
    scheduled = startScheduledBackups({
      dir: config.BACKUP_DIR,
      everyHours: config.BACKUP_EVERY_HOURS,
      keep: config.BACKUP_KEEP,
      key,
      connect,
      isLeader: () => app.cluster.isLeader(),
      log: app.log,
    });
    app.log.info({ dir: config.BACKUP_DIR, everyHours: config.BACKUP_EVERY_HOURS, keep: config.BACKUP_KEEP }, 'scheduled backups on');
  }
  return {
    stop: async () => {
      await scheduled?.stop();
      await socket?.close();
    },
  };
}
