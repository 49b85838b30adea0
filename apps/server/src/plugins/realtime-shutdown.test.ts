// Shutting down closes the browsers' sockets first (decision 028): they see a plain "transport close", so they
// reconnect and their pages say the feed is reconnecting at once, and the close does not wait for the forced exit.
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../test/test-db';
import { startTestApp } from '../../test/test-app';
import { browserSocket, connected } from '../tracking/tracking-test-kit';

describeEachEngine('server shutdown and connected browsers', (engine) => {
  it('closes every browser socket with "transport close" and finishes closing in well under a second', async () => {
    const { app, database, cookie } = await startTestApp(engine, { OSMAND_PORT: 0, HOST: '127.0.0.1' });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const sockets = [browserSocket(baseUrl, cookie, { deltas: true }), browserSocket(baseUrl, cookie)];
      await Promise.all(sockets.map(connected));
      const reasons = Promise.all(
        sockets.map(
          (socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason))),
        ),
      );
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(1_000);
      // Not "io server disconnect", after which socket.io-client would not try again.
      expect(await reasons).toEqual(['transport close', 'transport close']);
    } finally {
      await database.close();
    }
  });
});
