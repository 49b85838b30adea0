// The process: open the database, migrate, make sure an admin exists, listen, and shut down gracefully.
import { buildApp } from './app';
import { loadConfigOrExit } from './config';
import { openDatabase } from './db/client';
import { lockDataDirOrExit } from './lib/data-dir-lock';
import { describeNarrowed, keepToOwner } from './lib/private-files';
import { keyFilePath, loadBackupKey, loadSecretKey } from './lib/secret-key';
import { ensureFirstAdmin } from './modules/admin/admin-service';
import { sealStoredTotpSecrets } from './modules/admin/totp-secrets-at-rest';
import { DEMO_ADMINISTRATOR } from './seed/demo-accounts';
import { startBackgroundServices } from './startup';
import { ListenFailure, listenNamed } from './lib/listen-failure';
import { migrateWhenReachable } from './lib/wait-for-database';

/**
 * A start that cannot go on: a port that cannot be bound is one plain line naming it (on stderr, written before the
 * exit, which a log transport might not be), anything else its error.
 */
function stopStart(error: unknown): never {
  console.error(error instanceof ListenFailure ? error.message : error);
  process.exit(1);
}

// What this process creates is its own (the database, the key file, the lock, backups), whatever umask it was
// started with (decision 094).
process.umask(0o077);
const config = loadConfigOrExit();
// An embedded database belongs to one process; PostgreSQL serves many (decision 057).
const dataDirLock = config.DATABASE_URL ? null : lockDataDirOrExit(config.DATA_DIR);
const secretKey = loadSecretKey(config);
const backupKey = loadBackupKey(config, secretKey.key).key;
// Found wider than the owner's (an older version, a copy, a hand-made folder): narrowed now, and said once logging is up.
const narrowed = [...keepToOwner(keyFilePath(config.DATA_DIR)), ...keepToOwner(config.DATA_DIR)];
const logger = { level: config.LOG_LEVEL, transport: process.stdout.isTTY ? { target: 'pino-pretty' } : undefined };
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
// A PostgreSQL server that does not answer yet is waited for, not a failed start (decision 056).
if (config.DATABASE_URL) {
  await migrateWhenReachable(database, {
    databaseUrl: config.DATABASE_URL,
    logger,
    ports: {
      host: config.HOST,
      http: { variable: 'PORT', port: config.PORT },
      devices: [{ variable: 'OSMAND_PORT', port: config.OSMAND_PORT, what: 'the OsmAnd device port' }],
    },
  }).catch(stopStart);
} else await database.migrate();

const app = await buildApp({ config, database, logger, secretKey: secretKey.key });
if (narrowed.length > 0)
  app.log.warn(describeNarrowed(narrowed), 'files in DATA_DIR or the key file were readable by other users: narrowed to the owner alone (folders 0700, files 0600)');
if (secretKey.source === 'key file created')
  app.log.warn({ file: secretKey.file }, 'created the key file that seals two-factor secrets: back it up apart from the data');
const sealedNow = await sealStoredTotpSecrets(database.db, app.secretBox);
if (sealedNow > 0) app.log.info({ sealed: sealedNow }, 'two-factor secrets stored in plain text are now sealed');

// A demo started without ADMIN_PASSWORD opens with the demo's administrator, whose password README.md publishes.
const firstAdmin =
  config.DEMO && !config.ADMIN_PASSWORD
    ? { username: DEMO_ADMINISTRATOR.username, password: DEMO_ADMINISTRATOR.password }
    : { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD };
const first = await ensureFirstAdmin(database.db, firstAdmin);
if (first.generatedPassword) {
  const line = '='.repeat(64);
  // Printed once, on purpose not through the logger, so it stands out in the start-up output.
  console.log(`\n${line}\n  First admin created.\n  Username: ${first.username}\n  Password: ${first.generatedPassword}\n  (shown only now; the first login asks for a new password)\n${line}\n`);
} else if (first.created) {
  app.log.info({ username: first.username }, 'first admin created with the password given (ADMIN_PASSWORD, or the demo administrator)');
}

// The device ports first: one that cannot be bound stops the start, naming it, before /readyz ever says ready.
try {
  await app.ready();
  await app.openDevicePorts();
  await listenNamed('PORT', config.PORT, 'HTTP: web app, API and Socket.IO', () => app.listen({ port: config.PORT, host: config.HOST }));
} catch (error) {
  await app.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  stopStart(error);
}
app.log.info(`Serving on http://localhost:${config.PORT} (${database.kind})`);
const background = await startBackgroundServices(app, { backupKey });

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  try {
    await background.stop();
    await app.close(); // stops accepting, waits for in-flight requests, closes sockets
    await database.close();
    dataDirLock?.release();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
