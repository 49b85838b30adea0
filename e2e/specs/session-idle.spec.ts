// An idle browser is logged out (finding 4; decision 012): with SESSION_IDLE_MINUTES=1, a browser left on
// the live map while positions keep arriving lands on /login with the reason about a minute after its last use, and
// its socket receives nothing after the session ended. The run's shared server keeps the default idle time, so this
// spec starts a second real server process of its own, on E2E_PORT + 2 (and + 3 for its OsmAnd port).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_ADMIN, expect, loginButton, loginThroughForm, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';

const port = Number(process.env.E2E_PORT ?? 3210) + 2;
const base = `http://localhost:${port}`;
const IDLE_MESSAGE = 'Your session ended after 1 minute without activity. Log in again.';

let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-idle-'));
  server = spawnOwnServer(port, dataDir, { SESSION_IDLE_MINUTES: '1' });
  await waitReady(base, server);
});

test.afterAll(() => stopOwnServer(server, dataDir));

test('an idle browser lands on /login with the reason, and its socket receives nothing after', async ({ page, playwright }) => {
  test.setTimeout(180_000);
  // A tracked prisoner whose device keeps reporting: live updates arrive all the time the browser sits idle.
  const api = await playwright.request.newContext({ baseURL: base });
  const login = await api.post('/api/v1/admin/login', { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } });
  expect(login.status()).toBe(200);
  const prisoner = await api.post('/api/v1/prisoner/add', {
    data: { first_name: unique('Idle'), last_name: 'Watched', date_of_birth: '1983-02-17', status: 'Incarcerated' },
  });
  expect(prisoner.status(), await prisoner.text()).toBe(200);
  const device = await api.post('/api/v1/devices', { data: { prisoner_id: ((await prisoner.json()) as { prisoner_id: number }).prisoner_id, kind: 'phone' } });
  expect(device.status(), await device.text()).toBeLessThan(300);
  const deviceId = ((await device.json()) as { id: string }).id;
  let step = 0;
  const reporting = setInterval(() => {
    step++;
    // The device protocol needs no session; the browser's own session is the one that goes idle.
    void api
      .get('/api/v1/ingest/osmand', { params: { id: deviceId, lat: 51.5 + step * 0.0001, lon: -0.12, timestamp: Date.now() } })
      .catch(() => undefined);
  }, 500);

  try {
    // Every Socket.IO message the page receives, on any of its sockets.
    const frames: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    const events = () => frames.filter((frame) => frame.startsWith('42'));

    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, `${base}/login`);
    await expect(page).toHaveURL(`${base}/`);
    await page.goto(`${base}/live-map`);
    const lastUse = Date.now();
    await expect.poll(() => events().filter((frame) => frame.includes('"locationChanges"')).length).toBeGreaterThan(0);

    // Hands off: no mouse, no keyboard. Live updates and the refetches they cause do not count as activity.
    await expect(page).toHaveURL(`${base}/login`, { timeout: 100_000 });
    const idleFor = Date.now() - lastUse;
    await expect(page.getByTestId('session-ended')).toHaveText(IDLE_MESSAGE);
    expect(idleFor).toBeGreaterThan(55_000);
    // A minute, the sweep's 2.5 s and the reload: the live updates did not keep the session alive.
    expect(idleFor).toBeLessThan(75_000);

    // After the end (told on the socket, or by the 401 of a background refetch if that came first): positions keep
    // coming for 5 s more, and none reaches this page.
    const told = events().findIndex((frame) => frame.includes('"sessionEnded"'));
    if (told >= 0) expect(events()[told]).toContain('"reason":"idle"');
    const endedAt = told >= 0 ? told + 1 : events().length;
    await page.waitForTimeout(5_000);
    expect(events().slice(endedAt)).toEqual([]);

    // The login screen itself is as the SPEC has it.
    await expect(loginButton(page)).toBeVisible();
    await expect(page.getByTestId('login-error')).toHaveText('');
  } finally {
    clearInterval(reporting);
    await api.dispose();
  }
});
