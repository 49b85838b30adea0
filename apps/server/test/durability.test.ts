// Nothing acknowledged is lost when the process is killed: a real server process on the embedded database takes
// fixes from concurrent OsmAnd clients, is killed with SIGKILL mid-stream, and every fix it acknowledged is on disk.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPglite } from '../src/db/client';
import { afterAll, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'prison-durability-'));
const port = 3700 + Math.floor(Math.random() * 200);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitForReady(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become ready');
}

it('keeps every acknowledged fix and record after SIGKILL', async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      OSMAND_PORT: '0',
      DATA_DIR: dataDir,
      DEMO: 'false',
      DEVICE_SECRET_REQUIRED: 'false', // fixes by device id; credentials: ingest/device-credentials.test.ts
      DATABASE_URL: '',
      ADMIN_USERNAME: 'durable',
      ADMIN_PASSWORD: 'kill nine survivor',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: 'ignore',
  });
  await waitForReady();

  const login = await fetch(`${base}/api/v1/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'durable', password: 'kill nine survivor' }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const device = await fetch(`${base}/api/v1/devices`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Durable tag', kind: 'phone' }),
  });
  expect(device.status).toBe(201);
  const { id: deviceId } = (await device.json()) as { id: string };
  const prisoner = await fetch(`${base}/api/v1/prisoner/add`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      first_name: 'Durable',
      last_name: 'Record',
      date_of_birth: '1970-01-01',
      status: 'Incarcerated',
    }),
  });
  expect(prisoner.status).toBe(200);

  // Four clients send fixes as fast as they are acknowledged; each remembers the fixes the server acknowledged.
  const acknowledged: number[] = [];
  const start = Date.now() - 3_600_000;
  let next = 0;
  let killed = false;
  const client = async () => {
    while (!killed) {
      const timestamp = start + next++;
      try {
        const res = await fetch(
          `${base}/api/v1/ingest/osmand?id=${deviceId}&lat=51.5&lon=-0.12&timestamp=${timestamp}`,
        );
        if (res.status === 200) acknowledged.push(timestamp);
      } catch {
        return; // the process is gone
      }
    }
  };
  const clients = Promise.all([client(), client(), client(), client()]);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  killed = true;
  server.kill('SIGKILL');
  await clients;
  if (server.exitCode === null && server.signalCode === null)
    await new Promise((resolve) => server!.once('exit', resolve));
  expect(acknowledged.length).toBeGreaterThan(20);

  // The data directory as the killed process left it: recovery must find every acknowledged fix.
  const db = await createPglite({ dataDir: path.join(dataDir, 'pglite') });
  const { rows } = await db.query<{ t: string }>(
    `select (extract(epoch from recorded_at) * 1000)::bigint::text as t from positions where device_id = $1`,
    [deviceId],
  );
  const stored = new Set(rows.map((row) => Number(row.t)));
  const lost = acknowledged.filter((t) => !stored.has(t));
  expect(lost).toEqual([]);
  const records = await db.query(`select 1 from prisoners where first_name = 'Durable' and last_name = 'Record'`);
  expect(records.rows).toHaveLength(1);
  await db.close();
}, 120_000);
