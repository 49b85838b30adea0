// Browser sockets live only as long as their session (finding 4) and only from this app's own origin or
// ALLOWED_ORIGINS (finding 6). Sessions are ended here by writing the database directly, as another process (the
// admin CLI, a second server) would: no in-process notification reaches the sockets (decision 012).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, sessionEndedMessage, type SessionEnded } from '@prison/shared';
import { describeEachEngine } from '../../test/test-db';
import { sessions } from '../db/schema';
import { createAdmin, resetPassword } from '../modules/admin/admin-service';
import { hashToken } from '../sessions/session-service';
import { addDevice, addPrisoner, browserSocket, connected, deviceSocket, nextEvent, osmandGet, useListeningApp, type BrowserSocket } from './tracking-test-kit';
import { io as connect } from 'socket.io-client';

const PASSWORD = 'Quiet-Harbour-7731';
const ALLOWED = 'https://control.example:8443';
const LAT = 51.5007;
const LNG = -0.1246;

describeEachEngine('browser sockets end with their session', (engine) => {
  const ctx = useListeningApp(engine, { SESSION_IDLE_MINUTES: 1, ALLOWED_ORIGINS: [ALLOWED] });
  let deviceId = '';
  let streaming: NodeJS.Timeout | undefined;
  let lastFix: Promise<unknown> | null = null;

  // A device keeps reporting, so every connected browser keeps receiving locationChanges.
  beforeAll(async () => {
    const prisoner = await addPrisoner(ctx(), 'Live', 'Feed');
    deviceId = (await addDevice(ctx(), { prisoner_id: prisoner.id })).id;
    let step = 0;
    streaming = setInterval(() => {
      if (lastFix) return;
      step++;
      const position = { id: deviceId, lat: LAT + step * 0.00001, lon: LNG, timestamp: Date.now() };
      lastFix = osmandGet(ctx().osmandUrl, position)
        .catch(() => undefined)
        .finally(() => (lastFix = null));
    }, 100);
  });
  // Before the app closes (after-hooks run last-registered first): no fix may still be on its way.
  afterAll(async () => {
    clearInterval(streaming);
    await lastFix;
  });

  let adminCounter = 0;
  async function loggedInSocket() {
    const username = `watcher${++adminCounter}`;
    await createAdmin(ctx().database.db, { username, password: PASSWORD });
    const login = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: PASSWORD } });
    const token = login.json<{ token: string }>().token;
    const cookie = `${AUTH_COOKIE}=${token}`;
    const socket = browserSocket(ctx().baseUrl, cookie, { deltas: true });
    await connected(socket);
    // Live data is flowing to it.
    await nextEvent(socket, 'locationChanges');
    return { username, token, cookie, socket };
  }

  /**
   * Ends the session with `end` and proves the socket is told why within 5 s, disconnected, receives nothing more
   * while positions and alerts keep going out, and cannot come back with the same cookie.
   */
  async function expectEndedWithin5s(socket: BrowserSocket, cookie: string, reason: SessionEnded['reason'], end: () => Promise<unknown>) {
    const told = nextEvent<SessionEnded>(socket, 'sessionEnded', () => true, 5_000);
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    const endedAt = Date.now();
    await end();
    expect(await told).toEqual({ reason, message: sessionEndedMessage(reason, 1) });
    await disconnected;
    expect(Date.now() - endedAt).toBeLessThan(5_000);

    const after: string[] = [];
    socket.onAny((event: string) => after.push(event));
    ctx().app.realtime.toBrowsers().emit('showAlert', { index: deviceId, alert_type: 'critical', message: 'after the end' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(after).toEqual([]);

    const again = browserSocket(ctx().baseUrl, cookie);
    await expect(connected(again)).rejects.toThrow(/Authentication required/);
    again.disconnect();
    socket.disconnect();
  }

  const bySession = (token: string) => eq(sessions.tokenHash, hashToken(token));

  it('a revoked session (written by another process) is disconnected within 5 s', async () => {
    const { socket, cookie, token } = await loggedInSocket();
    await expectEndedWithin5s(socket, cookie, 'revoked', () =>
      ctx().database.db.update(sessions).set({ revokedAt: sql`now()`, endReason: 'revoked' }).where(bySession(token)),
    );
  });

  it('an expired session is disconnected within 5 s', async () => {
    const { socket, cookie, token } = await loggedInSocket();
    await expectEndedWithin5s(socket, cookie, 'expired', () =>
      ctx().database.db.update(sessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(bySession(token)),
    );
  });

  it('an idle session is disconnected within 5 s, though live updates kept arriving', async () => {
    const { socket, cookie, token } = await loggedInSocket();
    await expectEndedWithin5s(socket, cookie, 'idle', () =>
      ctx()
        .database.db.update(sessions)
        .set({ lastActiveAt: new Date(Date.now() - 61_000) })
        .where(bySession(token)),
    );
  });

  it("a password reset by the admin CLI's code path is disconnected within 5 s", async () => {
    const { socket, cookie, username } = await loggedInSocket();
    await expectEndedWithin5s(socket, cookie, 'password_changed', () =>
      resetPassword(ctx().database.db, username, 'Another-Quiet-Harbour-8842'),
    );
  });

  it('a logout in another tab is told at once', async () => {
    const { socket, cookie } = await loggedInSocket();
    await expectEndedWithin5s(socket, cookie, 'logout', () =>
      ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/logout`, headers: { cookie } }),
    );
  });

  it('refuses a browser handshake from another origin, another port of this host included', async () => {
    const { cookie, socket } = await loggedInSocket();
    socket.disconnect();
    const port = new URL(ctx().baseUrl).port;
    for (const origin of ['http://127.0.0.1:9999', 'http://localhost:9999', 'https://evil.example', 'null', `http://127.0.0.1:${port}.evil.example`]) {
      const foreign = connect(ctx().baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { cookie, origin } });
      const received: string[] = [];
      foreign.onAny((event: string) => received.push(event));
      await expect(connected(foreign), origin).rejects.toThrow();
      expect(received).toEqual([]);
      foreign.disconnect();
      // The polling transport is refused too.
      const polling = await fetch(`${ctx().baseUrl}/socket.io/?EIO=4&transport=polling`, { headers: { cookie, origin } });
      expect(polling.status, origin).toBe(403);
    }
  });

  it('accepts its own origin, ALLOWED_ORIGINS, and devices and browsers that send no Origin', async () => {
    const { cookie, socket } = await loggedInSocket();
    socket.disconnect();
    for (const origin of [ctx().baseUrl, ALLOWED, undefined]) {
      const browser = connect(ctx().baseUrl, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        extraHeaders: origin ? { cookie, origin } : { cookie },
        auth: { deltas: true },
      });
      await connected(browser);
      await nextEvent(browser, 'locationChanges');
      browser.disconnect();
    }
    const created = await addDevice(ctx());
    const device = deviceSocket(ctx().baseUrl, { deviceId: created.id, secret: created.secret });
    await connected(device);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(device.connected).toBe(true);
    device.disconnect();
  });
});
