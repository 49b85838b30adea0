// bench/ingest's MQTT sightings run, once per message format: a Mosquitto of its own (a free port of the given range),
// R readers registered on the bench database in that format, each publishing T tags of the bench devices (made tags
// for the run) 10 times a second from a worker thread, into the real server subscribed to the broker; for the RTLS
// format, the same tags' positions in plan millimetres on a default site plan. Prints sightings stored per second and
// checks that every published one is stored once.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { inArray, sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import type { Config } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/client';
import { devices, readers, sitePlans } from '../../apps/server/src/db/schema';
import { hashSecret } from '../../apps/server/src/tracking/device-registry';
import type { BenchFormat, MqttLoadOptions, MqttLoadResult } from './mqtt-worker';

export interface MqttPhaseOptions {
  format: BenchFormat;
  /** The first port of the 100 the broker may take. */
  portFrom: number;
  readers: number;
  tagsPerMessage: number;
  rate: number;
  seconds: number;
  devices: number;
}

export interface MqttPhaseResult {
  published: number;
  stored: number;
  missing: number;
  sightingsPerSecond: number;
  publishedPerSecond: number;
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function startBroker(portFrom: number): Promise<{ url: string; stop(): void }> {
  let port = 0;
  for (let candidate = portFrom + Math.floor(Math.random() * 50); candidate < portFrom + 100 && !port; candidate++) if (await canListen(candidate)) port = candidate;
  if (!port) throw new Error(`no free port in ${portFrom}-${portFrom + 99} for Mosquitto`);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  // No queue limits: the default 1000 queued messages would drop QoS 1 messages for a subscriber that falls behind.
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\nmax_inflight_messages 0\n`);
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return { url: `mqtt://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('Mosquitto did not start');
}

function runPublishers(options: MqttLoadOptions): Promise<MqttLoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./mqtt-worker-entry.mjs', import.meta.url), { workerData: options });
    worker.once('message', (message: MqttLoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

/** A default site plan at 0.5 m per pixel, north up, around the bench's centre: where the RTLS positions land. */
async function placeBenchPlan(database: Database): Promise<void> {
  const image = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><rect width="400" height="300" fill="#eee"/></svg>');
  const point = (x: number, y: number) => ({ x, y, lat: 51.5 - (0.5 * y) / 111_195, lng: -0.12 + (0.5 * x) / (111_195 * Math.cos((51.5 * Math.PI) / 180)) });
  await database.db.update(sitePlans).set({ isDefault: false });
  await database.db.insert(sitePlans).values({
    name: 'Bench RTLS plan',
    contentType: 'image/svg+xml',
    image,
    byteSize: image.length,
    digest: createHash('sha256').update(image).digest('hex'),
    width: 400,
    height: 300,
    points: [point(0, 0), point(400, 0), point(0, 300)],
    isDefault: true,
  });
}

export async function mqttPhase(database: Database, baseConfig: Config, options: MqttPhaseOptions, log: (text: string) => void): Promise<MqttPhaseResult> {
  const broker = await startBroker(options.portFrom);
  const { format } = options;
  try {
    const tagsNeeded = options.readers * options.tagsPerMessage;
    if (tagsNeeded > options.devices) throw new Error(`--mqtt-readers x --mqtt-tags (${tagsNeeded}) exceeds --devices`);
    const readerRows = Array.from({ length: options.readers }, (_, r) => ({
      id: `bench-${format}-reader-${r}`,
      secret: `bench-reader-secret-${r}`,
      tags: Array.from({ length: options.tagsPerMessage }, (_, k) => `bench-${r * options.tagsPerMessage + k}`),
    }));
    if (format === 'pozyx') await placeBenchPlan(database);
    else
      await database.db
        .insert(readers)
        .values(readerRows.map((r, i) => ({ id: r.id, name: `Bench reader ${i}`, latitude: 51.5 + i / 10_000, longitude: -0.12, radiusM: 5, secretHash: hashSecret(r.secret), format })))
        .onConflictDoNothing();
    // Readers and the RTLS place tags only: the devices they see are tags for this run, phones again after it.
    const tagIds = readerRows.flatMap((r) => r.tags);
    for (let i = 0; i < tagIds.length; i += 2000) await database.db.update(devices).set({ kind: 'tag' }).where(inArray(devices.id, tagIds.slice(i, i + 2000)));
    const config: Config = { ...baseConfig, MQTT_URL: broker.url, ...(format === 'pozyx' ? { RTLS_FORMAT: 'pozyx', RTLS_PLAN_ORIGIN: '0,300' } : {}) };
    const app = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const link = format === 'pozyx' ? 'rtls' : 'mqtt';
    try {
      for (let i = 0; i < 200 && !app.fixSourceLinks().some((l) => l.name === link && l.state === 'up'); i++) await new Promise((r) => setTimeout(r, 50));
      // Two hours back, so the instants meet none of the other runs' fixes; OpenMQTTGateway's messages carry no time,
      // so its sightings are stored at their arrival, counted from now on.
      const arrivals = format === 'openmqttgateway';
      const firstAt = arrivals ? Date.now() : Date.now() - 2 * 3600_000;
      log(`MQTT ${format}: ${options.readers} readers x ${options.tagsPerMessage} tags x ${options.rate}/s for ${options.seconds} s`);
      const result = await runPublishers({ format, url: broker.url, readers: readerRows, seconds: options.seconds, rate: options.rate, firstAt, connections: 8 });
      const lastAt = arrivals ? Date.now() + 3600_000 : firstAt + options.seconds * 1000;
      const count = async () =>
        Number(
          (
            (await database.db.execute(
              sql`select count(*)::int as n from positions where device_id like 'bench-%' and recorded_at >= ${new Date(firstAt).toISOString()}::timestamptz and recorded_at < ${new Date(lastAt).toISOString()}::timestamptz`,
            )) as unknown as { rows: { n: number }[] }
          ).rows[0]!.n,
        );
      // Stored once published: wait until the count stops rising (or all are in).
      let stored = await count();
      let still = 0;
      while (stored < result.published && still < 20) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const now = await count();
        still = now === stored ? still + 1 : 0;
        stored = now;
      }
      const elapsed = (Date.now() - result.startedAt - still * 250) / 1000;
      const distinct = Number(
        (
          (await database.db.execute(
            sql`select count(*)::int as n from (select distinct device_id, recorded_at from positions where device_id like 'bench-%' and recorded_at >= ${new Date(firstAt).toISOString()}::timestamptz and recorded_at < ${new Date(lastAt).toISOString()}::timestamptz) d`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n,
      );
      if (distinct !== stored) throw new Error(`${stored - distinct} sightings stored twice`);
      return {
        published: result.published,
        stored,
        missing: result.published - stored,
        sightingsPerSecond: stored / elapsed,
        publishedPerSecond: result.published / (result.elapsedMs / 1000),
      };
    } finally {
      await app.close();
      for (let i = 0; i < tagIds.length; i += 2000) await database.db.update(devices).set({ kind: 'phone' }).where(inArray(devices.id, tagIds.slice(i, i + 2000)));
    }
  } finally {
    broker.stop();
  }
}
