// Work that runs beside the HTTP server in a real process (not in tests): demo seed, simulator, scheduled jobs.
import type { App } from './app';

export interface BackgroundServices {
  stop(): Promise<void>;
}

export async function startBackgroundServices(app: App): Promise<BackgroundServices> {
  const stops: (() => Promise<void> | void)[] = [];
  if (app.config.DEMO) app.log.info('demo mode: seeding demo data and running the simulator');
  return {
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
