import type { App } from '../app';

/** Seeds geofences and devices for the demo, and starts the simulator (tracking feature fills this). */
export async function startDemoTracking(_app: App): Promise<{ stop(): Promise<void> }> {
  return { stop: async () => undefined };
}
