// Work that runs beside the HTTP server in a real process (not in tests): demo seed, simulator, scheduled jobs,
// backups (the PGlite backup socket, scheduled backups).
import type { App } from './app';
import { startServerBackups } from './backup/server-backups';
import { seedDemoAccounts } from './seed/seed-demo-accounts';
import { seedDemoRecords } from './seed/demo-records';
import { startDemoTracking } from './seed/demo-tracking';

export interface BackgroundServices {
  stop(): Promise<void>;
}

/** Runs after `listen`, because the simulator reports through the real device protocols. */
export async function startBackgroundServices(app: App, options: { backupKey: Buffer }): Promise<BackgroundServices> {
  const stops: (() => Promise<void>)[] = [];
  const backups = await startServerBackups(app, options.backupKey);
  stops.push(() => backups.stop());
  if (app.config.DEMO) {
    app.log.info('demo mode: seeding demo data and running the simulator');
    await seedDemoRecords(app.db);
    // After the records: the officers' caseloads name the demo's blocks.
    const accounts = await seedDemoAccounts(app.db);
    if (accounts.length > 0)
      app.log.warn({ accounts }, "demo accounts created with the published passwords of README.md's demo section");
    const tracking = await startDemoTracking(app);
    stops.push(() => tracking.stop());
  }
  return {
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
