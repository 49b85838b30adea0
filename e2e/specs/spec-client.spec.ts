// The spec's own client works unchanged against our server. e2e/spec-client is a stand-in that behaves as
// that client was observed to (its own `auth-cookie`, `response.data` read as SPEC 7 writes it, `{ lat, lng }` points,
// markers kept from complete `locationUpdate` sets only, every `showAlert` re-posted). Like that client it is served
// by Vite's dev server whose proxy forwards /api and /socket.io to our server, rewriting Host but not Origin; the
// server is told the proxy's origin through ALLOWED_ORIGINS (e2e/playwright.config.ts), nothing else.
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { E2E_ADMIN, expect, test, unique } from '../fixtures';
import type {} from '../spec-client/client';

const serverPort = Number(process.env.E2E_PORT ?? 3210);
const clientPort = serverPort + 5;
const target = `http://localhost:${serverPort}`;
let vite: ViteDevServer;

test.beforeAll(async () => {
  vite = await createServer({
    root: path.resolve(import.meta.dirname, '../spec-client'),
    configFile: false,
    logLevel: 'warn',
    cacheDir: path.resolve(import.meta.dirname, '../../.tmp', `vite-spec-client-${clientPort}`),
    server: {
      port: clientPort,
      strictPort: true,
      host: 'localhost',
      proxy: {
        '/api': { target, changeOrigin: true },
        '/socket.io': { target, ws: true, changeOrigin: true },
      },
    },
  });
  await vite.listen();
});

test.afterAll(async () => {
  await vite?.close();
});

test('the spec client logs in, reads every list, draws a geofence, keeps moving markers, and one breach is one alert', async ({
  page,
  api,
}) => {
  test.setTimeout(150_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // Our records: a tracked prisoner with a tracker, and a cell in a block of our own.
  const firstName = unique('Spec');
  const prisonerRes = await api.post('/api/v1/prisoner/add', {
    data: { first_name: firstName, last_name: 'Client', date_of_birth: '1988-03-14', status: 'Incarcerated' },
  });
  expect(prisonerRes.status(), await prisonerRes.text()).toBe(200);
  const created = (await prisonerRes.json()) as { prisoner_id?: number; data?: { prisoner_id: number } };
  const prisonerId = created.prisoner_id ?? created.data!.prisoner_id;
  const deviceRes = await api.post('/api/v1/devices', { data: { name: unique('Spec tag '), kind: 'phone' } });
  expect(deviceRes.status(), await deviceRes.text()).toBeLessThan(300);
  const device = (await deviceRes.json()) as { id: string };
  const assignRes = await api.put(`/api/v1/devices/${encodeURIComponent(device.id)}/assign`, {
    data: { prisoner_id: prisonerId },
  });
  expect(assignRes.status(), await assignRes.text()).toBe(200);
  const block = unique('S');
  const cellId = unique('spec-cell-');
  const cellRes = await api.post('/api/v1/cell_controls/cells', {
    data: { cell_id: cellId, block, capacity: 2, security_level: 'Low' },
  });
  expect(cellRes.status(), await cellRes.text()).toBeLessThan(300);

  await page.goto(`http://localhost:${clientPort}/`);
  await page.waitForFunction(() => 'specClient' in window);

  // Login: the server's session cookie does not stop the client from keeping its own marker.
  const loggedIn = await page.evaluate(
    ({ username, password }) => window.specClient.login(username, password),
    E2E_ADMIN,
  );
  expect(loggedIn).toBe(true);
  expect(await page.evaluate(() => window.specClient.verify())).toBe(true);

  // Lists, as SPEC 7 writes them.
  const prisoners = (await page.evaluate(() => window.specClient.prisoners())) as { first_name: string }[];
  expect(prisoners.length).toBeGreaterThan(0);
  expect(Array.isArray(await page.evaluate(() => window.specClient.staff('Police')))).toBe(true);
  expect(Array.isArray(await page.evaluate(() => window.specClient.staff('Guard')))).toBe(true);

  // The cell picker: `Block {name}`, then that block's cells.
  const blocks = (await page.evaluate(() => window.specClient.blocks())) as string[];
  expect(blocks).toContain(`Block ${block}`);
  const cells = (await page.evaluate((label) => window.specClient.cells(label), `Block ${block}`)) as {
    cell_id: string;
  }[];
  expect(cells.map((c) => c.cell_id)).toContain(cellId);

  // A polygon drawn on the map: a Positive Critical zone east of where the prisoner starts.
  const start = { lat: 51.52 + Math.random() * 0.01, lng: -0.2 + Math.random() * 0.01 };
  const zone = {
    west: start.lng + 0.0009,
    east: start.lng + 0.005,
    south: start.lat - 0.001,
    north: start.lat + 0.001,
  };
  const fenceId = crypto.randomUUID();
  const fenceName = unique('Spec workshop ');
  const status = await page.evaluate((fence) => window.specClient.addGeofence(fence), {
    geofence_id: fenceId,
    name: fenceName,
    type: 'Positive',
    alert_type: 'Critical',
    points: [
      { lat: zone.south, lng: zone.west },
      { lat: zone.north, lng: zone.west },
      { lat: zone.north, lng: zone.east },
      { lat: zone.south, lng: zone.east },
    ],
  });
  expect(status).toBe(200);
  const fences = (await page.evaluate(() => window.specClient.geofences())) as {
    geofence_id: string;
    points: { lat: number; lng: number }[];
  }[];
  expect(fences.find((f) => f.geofence_id === fenceId)?.points).toHaveLength(4);

  // Live: the prisoner walks east for 30 s, one fix a second, into the zone after about 10 s and stays there.
  await page.evaluate(() => window.specClient.connect());
  const present: boolean[] = [];
  const started = Math.floor(Date.now() / 1000);
  for (let step = 0; step < 30; step++) {
    const res = await api.get('/api/v1/ingest/osmand', {
      params: { id: device.id, lat: start.lat, lon: start.lng + step * 0.0001, timestamp: started + step },
    });
    expect(res.status(), await res.text()).toBe(200);
    await page.waitForTimeout(1000);
    const markers = await page.evaluate(() => window.specClient.state.markers);
    present.push(device.id in markers);
  }
  // The marker appears within two seconds and is never removed after that.
  expect(present.slice(2).every(Boolean), `marker present per second: ${present.map(Number).join('')}`).toBe(true);
  const client = await page.evaluate(() => window.specClient.state);
  const positions = new Set(
    client.updates
      .map((u) => u[device.id])
      .filter(Boolean)
      .map((p) => `${p!.lat},${p!.lng}`),
  );
  expect(positions.size, 'distinct marker positions').toBeGreaterThanOrEqual(10);

  // One breach: one toast and one stored alert, however often the client re-posted it.
  await page.waitForTimeout(3000);
  const settled = await page.evaluate(() => window.specClient.state);
  const ourToasts = settled.toasts.filter((t) => t.index === device.id);
  expect(ourToasts).toHaveLength(1);
  // The level as docs/CLIENT-CONTRACT.md names it, so that client shows a Critical as critical, not informational.
  expect(ourToasts[0]).toMatchObject({ alert_type: 'critical' });
  expect(settled.toastLevels[settled.toasts.indexOf(ourToasts[0]!)]).toBe('critical');
  expect(settled.reposts).toBeGreaterThanOrEqual(1);
  expect(settled.repostFailures).toBe(0);
  const stored = await api.get('/api/v1/alert/prisoneralerts', { params: { prisoner_id: prisonerId, limit: 100 } });
  expect(stored.status(), await stored.text()).toBe(200);
  const storedAlerts = ((await stored.json()) as { data: { details: string }[] }).data;
  expect(storedAlerts.filter((a) => a.details.includes(fenceName))).toHaveLength(1);

  // The alerts screen reads the same list from `response.data.data`.
  const listed = (await page.evaluate(() => window.specClient.alerts())) as {
    details: string;
    first_name: string | null;
  }[];
  expect(listed.some((a) => a.details.includes(fenceName) && a.first_name === firstName)).toBe(true);
  // Asked without a page, the list holds every open Critical, so the header's count is the real one.
  const totalOf = async (params: Record<string, string | number>) =>
    ((await (await api.get('/api/v1/alert/prisoneralerts', { params: { ...params, limit: 1 } })).json()) as { totalAlerts: number }).totalAlerts;
  const storedTotal = await totalOf({});
  const openCriticals = await totalOf({ status: 'New', alert_type: 'Critical' });
  const counts = await page.evaluate(() => window.specClient.alertCounts());
  expect(counts.Critical).toBeGreaterThanOrEqual(openCriticals);
  expect(counts.total).toBeGreaterThanOrEqual(Math.min(storedTotal, 1000));
  expect([...pageErrors, ...settled.errors]).toEqual([]);
});
