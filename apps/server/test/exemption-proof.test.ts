// Decision 037, "an exemption holds only while proven", enumerated: each exemption from a geofence (a row of
// EXEMPTIONS; today the escort) x each way its proof can be missing (PROOF_GAPS) x live or after a restart (the app
// closed and a new one built on the same database): a prisoner walking out of the Negative Critical perimeter, his
// fixes sent through the OsmAnd HTTP protocol, gets the perimeter's Critical alert within the grace period
// (ESCORT_SEPARATION_SECONDS). The control (proof present, and after the restart only from the stored last fix)
// raises nothing, so the test can fail. Both engines.
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, destinationPoint, ESCORT_SEPARATION_SECONDS, type DeviceCreated, type Escort, type ShowAlertEvent } from '@prison/shared';
import { buildApp, type App } from '../src/app';
import type { Database } from '../src/db/client';
import { alerts, prisoners } from '../src/db/schema';
import { createAdmin } from '../src/modules/admin/admin-service';
import { browserSocket, connected } from '../src/tracking/tracking-test-kit';
import { testConfig, TEST_ADMIN } from './test-app';
import { createTestDatabase, describeEachEngine } from './test-db';
import { sleep } from './wait-for';

const GRACE_MS = ESCORT_SEPARATION_SECONDS * 1000;
const BASE: [number, number] = [51.45, -0.3];
/** The perimeter: a Negative Critical circle of 1 km around BASE. */
const PERIMETER_M = 1000;
/** Outside the perimeter, where the prisoner walks to (and where an escorting officer waits). */
const OUTSIDE_M = 1500;

/** Each way an exemption's proof can be missing. Offline comes first: the silence it takes affects every tracker. */
const PROOF_GAPS = ['tracker offline', 'no tracker', 'no position since start', 'separated', 'expired', 'unmonitored', 'last fix too old'] as const;
type ProofGap = (typeof PROOF_GAPS)[number];
type Proof = 'proven' | ProofGap;
/** The control right after the offline case, so it is walked soon after a restart. */
const PROOFS: Proof[] = ['tracker offline', 'proven', ...PROOF_GAPS.slice(1)];
/**
 * Before a restart they are arranged in this order: offline first (its silence marks every tracker offline), and
 * the cases whose officer's fix must still be fresh (at most 30 s old) at the walk last, the control the very last.
 */
const ARRANGE_ORDER: Proof[] = ['tracker offline', 'expired', 'no tracker', 'no position since start', 'unmonitored', 'last fix too old', 'separated', 'proven'];

interface Node {
  app: App;
  baseUrl: string;
  cookie: string;
  api(method: string, url: string, body?: unknown): Promise<{ statusCode: number; body: string; json(): any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** One fix through the OsmAnd HTTP protocol, `metresEast` of BASE at `at`. */
  fix(device: DeviceCreated, metresEast: number, at: number): Promise<void>;
}

interface Arranged {
  /** The walk may not begin before this (ms): an exemption that expires first. */
  notBefore?: number;
  /** What GET /escorts-like state the exemption says before the walk (escorting, and why not). */
  status(node: Node): Promise<{ escorting: boolean; reason: string | null }>;
}

/** An exemption of a prisoner from the perimeter: made with its proof present, or missing in each way. */
interface Exemption {
  name: string;
  arrange(node: Node, prisoner: { id: number }, proof: Proof): Promise<Arranged>;
  /** What it says before the walk, per proof. */
  expected: Record<Proof, { escorting: boolean; reason: string | null }>;
}

let counter = 0;
const unique = () => `${Date.now() % 1_000_000}${++counter}`;

async function addDevice(node: Node, body: Record<string, unknown>): Promise<DeviceCreated> {
  const res = await node.api('POST', '/devices', { name: `Tracker ${unique()}`, kind: 'phone', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const EXEMPTIONS: Exemption[] = [
  {
    name: 'escort',
    async arrange(node, prisoner, proof) {
      const staff = await node.api('POST', '/staff/add', { first_name: 'Pat', last_name: `Officer${unique()}`, role: 'Police', badge_number: unique() });
      expect(staff.statusCode, staff.body).toBe(200);
      const staffId = staff.json().staff_id as number;
      const tracker = proof === 'unmonitored' ? null : await addDevice(node, { staff_id: staffId });
      const now = Date.now();
      const until = proof === 'expired' ? now + 1500 : null;
      const created = await node.api('POST', '/escorts', {
        prisoner_id: prisoner.id,
        staff_id: staffId,
        max_distance_m: 50,
        from: new Date(now - 300_000).toISOString(),
        until: until === null ? null : new Date(until).toISOString(),
        ...(proof === 'unmonitored' ? { unmonitored: true } : {}),
      });
      expect(created.statusCode, created.body).toBe(200);
      const escortId = (created.json().escort as Escort).id;
      // Where the officer last reported: beside where the prisoner will walk to, or (separated) inside at BASE; just now,
      // or a minute ago, his tracker still online (its last fix too old).
      const reported = proof === 'last fix too old' ? now - 60_000 : now;
      if (tracker && proof !== 'no position since start') await node.fix(tracker, proof === 'separated' ? 0 : OUTSIDE_M + 10, reported);
      if (proof === 'tracker offline') await node.app.tracking.checkSilence(new Date(Date.now() + node.app.config.DEVICE_OFFLINE_SECONDS * 1000 + 1000));
      if (proof === 'no tracker') expect((await node.api('DELETE', `/devices/${tracker!.id}`)).statusCode).toBe(200);
      if (until !== null) await sleep(until - Date.now() + 50);
      return {
        notBefore: until ?? undefined,
        async status(n) {
          const [escort] = (await n.api('GET', `/escorts?prisoner_id=${prisoner.id}`)).json().data as Escort[];
          expect(escort?.id).toBe(escortId);
          return { escorting: escort!.escorting, reason: escort!.not_escorting_reason };
        },
      };
    },
    expected: {
      proven: { escorting: true, reason: null },
      'tracker offline': { escorting: false, reason: "Officer's tracker offline" },
      'no tracker': { escorting: false, reason: 'Officer has no tracker' },
      'no position since start': { escorting: false, reason: 'No position from the officer yet' },
      // Together until the walk: it fails only when the prisoner walks away.
      separated: { escorting: true, reason: null },
      expired: { escorting: false, reason: null },
      unmonitored: { escorting: false, reason: 'Unmonitored: record only' },
      'last fix too old': { escorting: false, reason: "No fix from the officer's tracker for over 30 s" },
    },
  },
];

async function startNode(database: Database, first: boolean): Promise<Node> {
  const app = await buildApp({ config: testConfig({ OSMAND_PORT: 0, HOST: '127.0.0.1' }), database, logger: false });
  await app.ready();
  if (first) await createAdmin(database.db, TEST_ADMIN);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password } });
  const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
  return {
    app,
    baseUrl,
    cookie,
    api: (method, url, body) => app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: body as Record<string, unknown>, headers: { cookie } }),
    async fix(device, metresEast, at) {
      const [lat, lon] = destinationPoint(BASE[0], BASE[1], metresEast, 90);
      const query = new URLSearchParams({ id: device.id, secret: device.secret, lat: String(lat), lon: String(lon), timestamp: new Date(at).toISOString() });
      const res = await fetch(`${baseUrl}${API_PREFIX}/ingest/osmand?${query}`);
      expect(res.status, await res.text()).toBe(200);
    },
  };
}

describeEachEngine('an exemption holds only while proven (decision 037)', (engine) => {
  let database: Database;
  let node: Node;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    node = await startNode(database, true);
    const perimeter = await node.api('POST', '/geofence/add', {
      geofence_id: 'proof-perimeter',
      name: 'Perimeter',
      shape: 'Circle',
      type: 'Negative',
      alert_type: 'Critical',
      radius: PERIMETER_M,
      center_lat: BASE[0],
      center_lng: BASE[1],
    });
    expect(perimeter.statusCode, perimeter.body).toBeLessThan(300);
  }, 60_000);

  afterAll(async () => {
    await node?.app.close();
    await database?.close();
  });

  interface Case {
    exemption: Exemption;
    proof: Proof;
    prisoner: { id: number; device: DeviceCreated };
    arranged: Arranged;
  }

  async function arrange(exemption: Exemption, proof: Proof): Promise<Case> {
    const [row] = await database.db.insert(prisoners).values({ firstName: 'Walker', lastName: `${exemption.name} ${proof}`, status: 'Incarcerated' }).returning({ id: prisoners.prisonerId });
    const device = await addDevice(node, { prisoner_id: row!.id });
    const prisoner = { id: row!.id, device };
    return { exemption, proof, prisoner, arranged: await exemption.arrange(node, prisoner, proof) };
  }

  /** The prisoner walks out: inside, then outside at `breach` and 20 s later; the tick runs at the grace's end. */
  async function walkOut(c: Case): Promise<void> {
    const label = `${c.exemption.name}, ${c.proof}`;
    expect(await c.arranged.status(node), label).toEqual(c.exemption.expected[c.proof]);
    const breach = Math.max(Date.now() - 40_000, (c.arranged.notBefore ?? 0) + 1);
    await node.fix(c.prisoner.device, 10, breach - 10_000);
    await node.fix(c.prisoner.device, OUTSIDE_M + 10, breach);
    await node.fix(c.prisoner.device, OUTSIDE_M + 20, breach + 20_000);
    await node.app.tracking.checkSilence(new Date(breach + GRACE_MS + 1000));
    const raised = await database.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.prisonerId, c.prisoner.id), eq(alerts.kind, 'geofence')));
    if (c.proof === 'proven') {
      expect(raised, label).toEqual([]);
      expect(await c.arranged.status(node), label).toEqual({ escorting: true, reason: null });
      // Escorted back in: nothing left pending for a later case's clock (the expired one's runs ahead) to raise once
      // this officer's fix is over 30 s old.
      await node.fix(c.prisoner.device, 10, breach + 21_000);
      return;
    }
    expect(raised.map((a) => [a.alertType, a.details]), label).toEqual([['Critical', `Walker ${c.exemption.name} ${c.proof} left Perimeter`]]);
    const late = raised[0]!.timestamp.getTime() - breach;
    expect(late, `${label}: raised ${late} ms after the breach`).toBeLessThanOrEqual(GRACE_MS);
    expect(late, label).toBeGreaterThanOrEqual(0);
  }

  it('live: each exemption x each way its proof is missing raises the perimeter within the grace period; proven, nothing', async () => {
    // A control-room browser hears each of them.
    const socket = browserSocket(node.baseUrl, node.cookie);
    const heard: string[] = [];
    socket.on('showAlert', (event: ShowAlertEvent) => heard.push(event.message));
    try {
      await connected(socket);
      for (const exemption of EXEMPTIONS) for (const proof of PROOFS) await walkOut(await arrange(exemption, proof));
      const expected = EXEMPTIONS.flatMap((e) => PROOF_GAPS.map((proof) => `Walker ${e.name} ${proof} left Perimeter`));
      await expect.poll(() => heard.filter((m) => m.endsWith('left Perimeter')).sort()).toEqual(expected.sort());
    } finally {
      socket.disconnect();
    }
  }, 120_000);

  it('after a restart: the same, and an officer who reported before the restart is still known', async () => {
    const cases: Case[] = [];
    for (const exemption of EXEMPTIONS) for (const proof of ARRANGE_ORDER) cases.push(await arrange(exemption, proof));
    await node.app.close();
    node = await startNode(database, false);
    for (const proof of PROOFS) for (const c of cases) if (c.proof === proof) await walkOut(c);
  }, 120_000);
});
