// POST /alert/all is idempotent (docs/CLIENT-CONTRACT.md, docs/decisions/019): the spec's client posts back
// every showAlert it receives, and that echo must store and push nothing; an outside system's alert is stored and
// pushed once however often it is posted; and no account can flood the alert table, however many sessions it opens.
import { expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, type AlertRecord, type ShowAlertEvent } from '@prison/shared';
import { alerts, auditLog } from '../../db/schema';
import { createAdmin } from '../admin/admin-service';
import { loginAnotherAdmin, TEST_ADMIN, writeApproved } from '../../../test/test-app';
import { describeEachEngine } from '../../../test/test-db';
import {
  addDevice,
  addPrisoner,
  browserSocket,
  connected,
  nextEvent,
  useListeningApp,
  type BrowserSocket,
  type ListeningContext,
} from '../../tracking/tracking-test-kit';

const LAT = 51.5007;
const LNG = -0.1246;
const WINDOW_SECONDS = 300;
const POSTS_PER_MINUTE = 20;

let counter = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++counter}`;

/**
 * What the spec's client posts for a showAlert it received: index, alert_type and message back as device_id,
 * alert_type and details, with the browser's local date and time (here a browser at UTC+05:30), not the alert's.
 */
function specClientEcho(shown: ShowAlertEvent) {
  const local = new Date(Date.now() + 330 * 60_000).toISOString();
  return {
    device_id: shown.index,
    alert_type: shown.alert_type,
    date: local.slice(0, 10),
    timestamp: `${local.slice(0, 10)} ${local.slice(11, 19)}`,
    details: shown.message,
  };
}

/** Every showAlert and dataChanged('alerts') a logged-in browser receives. */
function recordPushes(socket: BrowserSocket) {
  const shown: ShowAlertEvent[] = [];
  let alertsChanged = 0;
  socket.on('showAlert', (alert) => shown.push(alert));
  socket.on('dataChanged', (topic) => {
    if (topic === 'alerts') alertsChanged++;
  });
  return { shown, alertsChanged: () => alertsChanged };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function alertCount(ctx: ListeningContext): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(alerts);
  return row!.n;
}

/** Another session of an account (the test admin by default): its own cookie. */
async function newSession(ctx: ListeningContext, account: { username: string; password: string } = TEST_ADMIN): Promise<string> {
  const login = await ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username: account.username, password: account.password },
  });
  expect(login.statusCode, login.body).toBe(200);
  return `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
}

const postAs = (ctx: ListeningContext, cookie: string, body: object) =>
  ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/alert/all`, payload: body, headers: { cookie } });

describeEachEngine('POST /alert/all: no echo, ever', (engine) => {
  const ctx = useListeningApp(engine, {
    ALERT_ECHO_WINDOW_SECONDS: WINDOW_SECONDS,
    ALERT_POST_RATE_PER_MINUTE: POSTS_PER_MINUTE,
    // The breach below is an hour old: the device must not go offline (and raise an alert) while the test runs.
    DEVICE_OFFLINE_SECONDS: 86_400,
  });

  it('50 echoes of a server-raised alert, as the spec client builds them from its showAlert: 200 with that alert, nothing stored, nothing pushed', async () => {
    const prisoner = await addPrisoner(ctx(), 'Echo', 'Walker');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const fenceId = `echo-fence-${engine}`;
    const fence = await ctx().api('POST', '/geofence/add', {
      geofence_id: fenceId,
      shape: 'Circle',
      name: 'Echo Yard',
      type: 'Negative',
      alert_type: 'Critical',
      dwell_seconds: 0,
      radius: 200,
      center_lat: LAT,
      center_lng: LNG,
    });
    expect(fence.statusCode, fence.body).toBe(200);
    // Fixes from an hour ago (a phone that was out of coverage): the alert is about then, and stored now.
    let clock = Date.now() - 3_600_000;
    const fix = async (latitude: number) => {
      clock += 1000;
      const res = await ctx().api('POST', '/ingest/positions', {
        positions: [
          { device_id: device.id, secret: device.secret, latitude, longitude: LNG, timestamp: new Date(clock).toISOString() },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const pushes = recordPushes(socket);
      await fix(LAT);
      const breach = nextEvent<ShowAlertEvent>(socket, 'showAlert', (a) => a.index === device.id);
      await fix(LAT + 0.01); // about 1.1 km north: outside
      const shown = await breach;
      expect(shown).toMatchObject({ alert_type: 'critical', message: 'Echo Walker left Echo Yard' });
      await settle();
      const showsBefore = pushes.shown.length;
      const changesBefore = pushes.alertsChanged();
      const storedBefore = await alertCount(ctx());
      const auditBefore = (await ctx().database.db.select({ n: count() }).from(auditLog))[0]!.n;

      // As the spec's client does on every showAlert (25 one after another, then 25 at once, as from 25 tabs).
      const answers = [];
      for (let i = 0; i < 25; i++) answers.push(await ctx().api('POST', '/alert/all', specClientEcho(shown)));
      answers.push(
        ...(await Promise.all(Array.from({ length: 25 }, () => ctx().api('POST', '/alert/all', specClientEcho(shown))))),
      );
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<AlertRecord>()).toMatchObject({
          id: shown.alertId,
          kind: 'geofence',
          device_id: device.id,
          details: 'Echo Walker left Echo Yard',
        });
      }
      await settle();
      expect(await alertCount(ctx())).toBe(storedBefore);
      expect(pushes.shown.length).toBe(showsBefore);
      expect(pushes.alertsChanged()).toBe(changesBefore);
      // An echo is not a change: no audit row.
      expect((await ctx().database.db.select({ n: count() }).from(auditLog))[0]!.n).toBe(auditBefore);

      // Resolved by an operator (a Critical: acknowledged first, decision 040): its echo still stores nothing, and
      // answers the alert as it is now.
      const acknowledged = await ctx().api('POST', `/alert/${shown.alertId}/acknowledge`, { note: 'Officer sent' });
      expect(acknowledged.statusCode, acknowledged.body).toBe(200);
      const resolved = await ctx().api('POST', `/alert/${shown.alertId}/resolve`, { note: 'Back inside' });
      expect(resolved.statusCode, resolved.body).toBe(200);
      await settle();
      const showsAfterResolve = pushes.shown.length;
      const late = await ctx().api('POST', '/alert/all', specClientEcho(shown));
      expect(late.statusCode).toBe(200);
      expect(late.json<AlertRecord>()).toMatchObject({ id: shown.alertId, status: 'Resolved' });
      await settle();
      expect(await alertCount(ctx())).toBe(storedBefore);
      expect(pushes.shown.length).toBe(showsAfterResolve);
    } finally {
      socket.disconnect();
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fenceId}`);
    }
  });

  it('a new outside alert is stored and pushed once; the same post again, one after another or 10 at once, is that alert', async () => {
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const pushes = recordPushes(socket);
      const body = { alert_type: 'Warning', details: unique('Perimeter sensor 7 tripped') };
      const first = await ctx().api('POST', '/alert/all', body);
      expect(first.statusCode, first.body).toBe(201);
      const created = first.json<AlertRecord>();
      expect(created).toMatchObject({ kind: 'manual', device_id: null, details: body.details });
      const sequential = [];
      for (let i = 0; i < 5; i++) sequential.push(await ctx().api('POST', '/alert/all', body));
      const parallel = await Promise.all(Array.from({ length: 10 }, () => ctx().api('POST', '/alert/all', body)));
      for (const res of [...sequential, ...parallel]) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<AlertRecord>().id).toBe(created.id);
      }
      await settle();
      const stored = await ctx().database.db.select().from(alerts).where(eq(alerts.details, body.details));
      expect(stored).toHaveLength(1);
      expect(pushes.shown.filter((a) => a.message === body.details)).toHaveLength(1);
      expect(pushes.alertsChanged()).toBe(1);
      const audits = await ctx()
        .database.db.select()
        .from(auditLog)
        .where(eq(auditLog.entityId, String(created.id))).orderBy(auditLog.id);
      expect(audits.filter((a) => a.entity === 'alert' && a.action === 'create')).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });

  it('10 copies of a new alert posted at once store exactly one and push it once', async () => {
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const pushes = recordPushes(socket);
      const prisoner = await addPrisoner(ctx(), 'Race', 'Condition');
      const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
      const body = { device_id: device.id, alert_type: 'Critical', details: unique('Fight reported') };
      const answers = await Promise.all(Array.from({ length: 10 }, () => ctx().api('POST', '/alert/all', body)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.json<AlertRecord>().id)).size).toBe(1);
      await settle();
      expect(await ctx().database.db.select().from(alerts).where(eq(alerts.details, body.details))).toHaveLength(1);
      expect(pushes.shown.filter((a) => a.message === body.details)).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });

  it('the same device, type and text stored longer ago than ALERT_ECHO_WINDOW_SECONDS is a new alert; another type or device is too', async () => {
    const body = { alert_type: 'Informational', details: unique('Headcount done in block B') };
    const first = await ctx().api('POST', '/alert/all', body);
    expect(first.statusCode).toBe(201);
    const within = await ctx().api('POST', '/alert/all', body);
    expect(within.statusCode).toBe(200);
    // Another type, or a device, is another alert.
    expect((await ctx().api('POST', '/alert/all', { ...body, alert_type: 'Warning' })).statusCode).toBe(201);
    const device = await addDevice(ctx());
    expect((await ctx().api('POST', '/alert/all', { ...body, device_id: device.id })).statusCode).toBe(201);
    // The first one was stored a second longer ago than the window.
    await ctx()
      .database.db.update(alerts)
      .set({ createdAt: sql`${alerts.createdAt} - make_interval(secs => ${WINDOW_SECONDS + 1})` })
      .where(eq(alerts.id, first.json<AlertRecord>().id));
    const after = await ctx().api('POST', '/alert/all', body);
    expect(after.statusCode, after.body).toBe(201);
    expect(after.json<AlertRecord>().id).not.toBe(first.json<AlertRecord>().id);
    // And that new one is now the alert a repeat answers.
    const again = await ctx().api('POST', '/alert/all', body);
    expect(again.statusCode).toBe(200);
    expect(again.json<AlertRecord>().id).toBe(after.json<AlertRecord>().id);
  });

  it('a flood of new alerts from one account over 3 sessions: 429 beyond the one limit, nothing stored; its repeats still answer; another account is unaffected', async () => {
    // One person with three sessions (three browsers, or a script logging in again) is still one account. An account
    // of its own, so the alerts the other tests stored this minute do not count.
    const account = { username: unique('flooder').replace(/\W/g, '-'), name: 'Flooder', password: 'flooding correct horse' };
    await createAdmin(ctx().database.db, account);
    const sessions = [await newSession(ctx(), account), await newSession(ctx(), account), await newSession(ctx(), account)];
    const prefix = unique('Flood');
    const answers = [];
    for (let i = 0; i < POSTS_PER_MINUTE + 12; i++)
      answers.push(await postAs(ctx(), sessions[i % 3]!, { alert_type: 'Critical', details: `${prefix} #${i}` }));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.slice(0, POSTS_PER_MINUTE)).toEqual(Array(POSTS_PER_MINUTE).fill(201));
    expect(statuses.slice(POSTS_PER_MINUTE)).toEqual(Array(12).fill(429));
    const refused = answers.at(-1)!;
    expect(refused.json().message).toBe(`Too many new alerts from this account: at most ${POSTS_PER_MINUTE} a minute`);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const stored = await ctx()
      .database.db.select()
      .from(alerts)
      .where(sql`${alerts.details} like ${`${prefix} #%`}`);
    expect(stored).toHaveLength(POSTS_PER_MINUTE);
    // A fourth session of the same account is refused too.
    const fourth = await postAs(ctx(), await newSession(ctx(), account), { alert_type: 'Critical', details: `${prefix} fourth` });
    expect(fourth.statusCode).toBe(429);
    // Over its limit, the account's repeats are still answered (a spec client's echoes never see an error).
    const repeat = await postAs(ctx(), sessions[1]!, { alert_type: 'Critical', details: `${prefix} #0` });
    expect(repeat.statusCode).toBe(200);
    // Another account stores its alert.
    const other = await loginAnotherAdmin(ctx());
    const theirs = await other('POST', '/alert/all', { alert_type: 'Critical', details: `${prefix} other` });
    expect(theirs.statusCode, theirs.body).toBe(201);
  });
});
