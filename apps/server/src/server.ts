// The process: open the database, migrate, make sure an admin exists, listen, and shut down gracefully.
// First: the signal handlers (a SIGTERM at any moment stops the process), then an empty TZ dropped (the default zone).
import { logStopWith, onStop, startStep, stopRequested } from './lib/process-stop';
import './lib/empty-time-zone';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfigOrExit } from './config';
import { openDatabase } from './db/client';
import { lockDataDirOrExit } from './lib/data-dir-lock';
import { loggerOptions } from './lib/logger-options';
import { describeNarrowed, keepToOwner } from './lib/private-files';
import { adoptAuditTrail } from './lib/audit-chain';
import { checkOidcIssuer } from './modules/admin/oidc-issuer-check';
import { keyFilePath, loadBackupKey, readStartKey, settleSecretKey } from './lib/secret-key';
import { REFUSED_START_STATUS, StartRefusal } from './lib/start-refusal';
import { ensureFirstAdmin } from './modules/admin/admin-service';
import { sealedTotpSecrets, sealStoredTotpSecrets } from './modules/admin/totp-secrets-at-rest';
import { DEMO_ADMINISTRATOR } from './seed/demo-accounts';
import { startBackgroundServices } from './startup';
import { ListenFailure, listenNamed } from './lib/listen-failure';
import { migrateWhenReachable } from './lib/wait-for-database';

/**
 * A start that cannot go on: a refusal (a key that does not fit, a schema too new) or a port that cannot be bound is
 * one plain line naming it (on stderr, written before the exit, which a log transport might not be), anything else its
 * error. A refusal ends with status 2, which the systemd unit does not restart. During a stop, the stop ends it.
 */
function stopStart(error: unknown): Promise<never> {
  if (stopRequested()) return new Promise<never>(() => undefined);
  console.error(error instanceof ListenFailure || error instanceof StartRefusal ? error.message : error);
  process.exit(error instanceof StartRefusal ? REFUSED_START_STATUS : 1);
}

// What this process creates is its own (the database, the key file, the lock, backups), whatever umask it was
// started with (decision 094).
process.umask(0o077);
const config = loadConfigOrExit();
// Refused before anything is written: a WEB_DIST that was set holds the app, or the start would be ready with no screens.
if (config.WEB_DIST && !existsSync(path.join(config.WEB_DIST, 'index.html')))
  await stopStart(new StartRefusal(`WEB_DIST ${path.resolve(config.WEB_DIST)} holds no built web app (no index.html): build it with \`npm run build\`, or unset WEB_DIST to serve apps/web/dist`));
// An embedded database belongs to one process; PostgreSQL serves many (decision 057).
// Single sign-on's provider must answer now, before anything is opened or written (decision 104).
await startStep(checkOidcIssuer(config)).catch(stopStart);
const dataDirLock = config.DATABASE_URL ? null : lockDataDirOrExit(config.DATA_DIR);
if (dataDirLock) onStop('data directory lock', () => dataDirLock.release());
// Read only: the key file is created once the database is known to hold no secret sealed with another key.
const startKey = await Promise.resolve()
  .then(() => readStartKey(config))
  .catch(stopStart);
// Found wider than the owner's (an older version, a copy, a hand-made folder): narrowed now, and said once logging is
// up. The key file only once it is known to be the data's (below): a refused start leaves it as it was.
const narrowed = keepToOwner(config.DATA_DIR);
const logger = loggerOptions(config.LOG_LEVEL, !!process.stdout.isTTY);
const database = await startStep(openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
onStop('database', () => database.close());
// A PostgreSQL server that does not answer yet is waited for, not a failed start (decision 056).
const migrated = await startStep(
  config.DATABASE_URL
    ? migrateWhenReachable(database, {
        databaseUrl: config.DATABASE_URL,
        logger,
        ports: {
          host: config.HOST,
          http: { variable: 'PORT', port: config.PORT },
          devices: [{ variable: 'OSMAND_PORT', port: config.OSMAND_PORT, what: 'the OsmAnd device port' }],
        },
      })
    : database.migrate(),
).catch(stopStart);
const secretKey = await startStep(sealedTotpSecrets(database.db).then((sealed) => settleSecretKey(startKey, sealed))).catch(stopStart);
narrowed.push(...keepToOwner(keyFilePath(config.DATA_DIR)));
const backupKey = loadBackupKey(config, secretKey.key).key;

const app = await startStep(buildApp({ config, database, logger, secretKey: secretKey.key }));
onStop('web server', () => app.close()); // stops accepting, waits for in-flight requests, closes sockets
logStopWith(app.log);
if (migrated.applied.length > 0)
  app.log.info({ migrations: migrated.applied, schema: migrated.schema }, `applied ${migrated.applied.length} database migration(s); the schema is at ${migrated.schema}`);
else app.log.info({ schema: migrated.schema }, `the database schema is current (${migrated.schema}); no migration applied`);
if (narrowed.length > 0)
  app.log.warn(describeNarrowed(narrowed), 'files in DATA_DIR or the key file were readable by other users: narrowed to the owner alone (folders 0700, files 0600)');
if (secretKey.source === 'key file created')
  app.log.warn({ file: secretKey.file }, 'created the key file that seals two-factor secrets: back it up apart from the data');
if ((config.SMTP_URL || config.ALERT_WEBHOOK_URL) && !config.PUBLIC_URL)
  app.log.warn('escalation is on without PUBLIC_URL: its emails and webhooks carry no link to the alert');
// The audit entries of a version before the hash chain are chained once, now, with this server's key (decision 104).
await startStep(adoptAuditTrail(database.db));
const sealedNow = await startStep(sealStoredTotpSecrets(database.db, app.secretBox));
if (sealedNow > 0) app.log.info({ sealed: sealedNow }, 'two-factor secrets stored in plain text are now sealed');

// A demo started without ADMIN_PASSWORD opens with the demo's administrator, whose password README.md publishes.
const firstAdmin =
  config.DEMO && !config.ADMIN_PASSWORD
    ? { username: DEMO_ADMINISTRATOR.username, password: DEMO_ADMINISTRATOR.password }
    : { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD };
const first = await startStep(ensureFirstAdmin(database.db, firstAdmin));
if (first.generatedPassword) {
  const line = '='.repeat(64);
  // Printed once, on purpose not through the logger, so it stands out in the start-up output.
  console.log(`\n${line}\n  First admin created.\n  Username: ${first.username}\n  Password: ${first.generatedPassword}\n  (shown only now; the first login asks for a new password)\n${line}\n`);
} else if (first.created) {
  app.log.info({ username: first.username }, 'first admin created with the password given (ADMIN_PASSWORD, or the demo administrator)');
}

// The device ports first: one that cannot be bound stops the start, naming it, before /readyz ever says ready.
try {
  await startStep(app.ready());
  await startStep(app.openDevicePorts());
  await startStep(listenNamed('PORT', config.PORT, 'HTTP: web app, API and Socket.IO', () => app.listen({ port: config.PORT, host: config.HOST })));
} catch (error) {
  await app.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  await stopStart(error);
}
app.log.info(`Serving on http://localhost:${config.PORT} (${database.kind})`);
// SIGTERM and SIGINT (lib/process-stop.ts) stop these first, then the web server, the database and the lock.
const background = await startStep(startBackgroundServices(app, { backupKey }));
onStop('background services', () => background.stop());
