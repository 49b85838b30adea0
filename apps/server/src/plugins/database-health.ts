// `app.databaseHealth`: whether the database answers. Every open browser is told when that changes (and on connect),
// so it shows a banner while data cannot be stored or read.
import type { FastifyInstance } from 'fastify';
import { DatabaseHealth } from '../lib/database-health';

declare module 'fastify' {
  interface FastifyInstance {
    databaseHealth: DatabaseHealth;
  }
}

export function registerDatabaseHealth(app: FastifyInstance) {
  const health = new DatabaseHealth({
    ping: () => app.database.ping(),
    log: app.log.child({ module: 'database' }),
    // Embedded PGlite lives in this process: it cannot become unreachable, so it is probed only after a failure.
    probeMs: app.database.kind === 'postgres' ? 5_000 : 0,
  });
  app.decorate('databaseHealth', health);
  app.addHook('onReady', async () => {
    // This process's own view of its database, to its own browsers (each process of a cluster reports its own).
    const browsers = () => app.realtime.toLocalBrowsers();
    health.onChange((database) => browsers().emit('serviceStatus', { database }));
    app.realtime.onBrowserConnect((socket) => socket.emit('serviceStatus', { database: health.status }));
    health.start();
  });
  app.addHook('onClose', async () => health.stop());
}
