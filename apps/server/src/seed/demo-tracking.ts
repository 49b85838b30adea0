// Demo mode: geofences around a fictional prison at the map centre, a tracker for most incarcerated prisoners, and
// the simulator walking them through the real OsmAnd HTTP protocol (not a shortcut inside the process); some of them
// are tags walking the blocks' corridors, reported by the corridor readers over HTTP or MQTT.
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, isNull, like } from 'drizzle-orm';
import { API_PREFIX } from '@prison/shared';
import type { App } from '../app';
import { blockAreas, cells, devices, geofences, prisoners, readers } from '../db/schema';
import { recordAudit, SYSTEM_ACTOR } from '../lib/audit';
import { createGeofence } from '../modules/geofences/geofence-service';
import { setBlockArea } from '../modules/block-areas/block-area-service';
import { newDeviceSecret, registerDevice } from '../modules/devices/device-service';
import { hashSecret } from '../tracking/device-registry';
import { seedDemoSitePlan } from './demo-site-plan';
import { PrisonSite } from '../simulator/site';
import { osmandTransport, Simulator, type SimulatedDevice } from '../simulator/simulator';
import { httpSightingTransport, mqttSightingTransport, type SimulatedReader } from '../simulator/sightings';

export const DEMO_DEVICE_PREFIX = 'demo-';
/** "Most" incarcerated prisoners wear a tracker: a few are left without, as in a real roll-out. */
const TRACKED_SHARE = 0.85;
const DEFAULT_MAX_DEVICES = 200;
/** Trackers walking the site when no prisoner is incarcerated yet. */
const UNASSIGNED_FALLBACK = 12;

async function seedGeofences(app: App, site: PrisonSite): Promise<void> {
  const [{ n } = { n: 0 }] = await app.db.select({ n: count() }).from(geofences);
  if (n > 0) return;
  const blocks = (await app.db.selectDistinct({ block: cells.block }).from(cells)).map((row) => row.block);
  for (const input of site.geofences(blocks)) await createGeofence(app.db, SYSTEM_ACTOR, input);
  await app.reloadGeofences();
}

/** An area for each demo block, laid out with the geofences; kept when any area exists already. */
async function seedBlockAreas(app: App, site: PrisonSite): Promise<void> {
  const [{ n } = { n: 0 }] = await app.db.select({ n: count() }).from(blockAreas);
  if (n > 0) return;
  const blocks = (await app.db.selectDistinct({ block: cells.block }).from(cells)).map((row) => row.block);
  for (const { block, points } of site.blockAreas(blocks)) await setBlockArea(app.db, SYSTEM_ACTOR, block, { points }, []);
}

/** Of the demo's trackers, this share are tags seen by the corridor readers indoors; the rest are phones. */
const INDOOR_SHARE = 0.2;
const tagsFor = (total: number) => Math.min(total, Math.max(2, Math.round(total * INDOOR_SHARE)));

/**
 * Demo devices (ids starting with "demo-") get a fresh secret on each start, kept in memory for the simulator:
 * only the hash was stored, so last run's secrets are unknown. About a fifth are tags (registered as `tag`, which the
 * readers may place; decision 092), listed first: the simulator walks the first `tags` along the corridors.
 */
async function demoDevices(app: App, limit: number): Promise<{ devices: SimulatedDevice[]; tags: number }> {
  const isTag = (device: { kind: string }) => device.kind === 'tag';
  const existing = (await app.db.select({ id: devices.id, kind: devices.kind }).from(devices).where(like(devices.id, `${DEMO_DEVICE_PREFIX}%`)))
    .sort((a, b) => Number(isTag(b)) - Number(isTag(a)))
    .slice(0, limit);
  const untracked = await app.db
    .select({ id: prisoners.prisonerId })
    .from(prisoners)
    .where(and(eq(prisoners.status, 'Incarcerated'), isNull(prisoners.trackingDeviceId)))
    .orderBy(prisoners.prisonerId);
  const [{ n: incarcerated } = { n: 0 }] = await app.db.select({ n: count() }).from(prisoners).where(eq(prisoners.status, 'Incarcerated'));
  const wanted = Math.min(limit, incarcerated > 0 ? Math.round(incarcerated * TRACKED_SHARE) : UNASSIGNED_FALLBACK);
  const fresh = Math.max(0, wanted - existing.length);
  const registering = incarcerated > 0 ? Math.min(fresh, untracked.length) : fresh;
  const tags = tagsFor(existing.length + registering);
  const keptTags = existing.filter(isTag).length;
  const newTags = Math.max(0, Math.min(registering, tags - keptTags));
  // Demo trackers from before devices had a kind are phones: enough of them become the demo's tags again.
  const retagged = new Set(existing.filter((d) => !isTag(d)).slice(0, Math.max(0, tags - keptTags - newTags)).map((d) => d.id));
  const result: (SimulatedDevice & { tag: boolean })[] = [];
  if (existing.length) {
    const rotated = existing.map(({ id, kind }) => ({ id, secret: newDeviceSecret(), tag: kind === 'tag' || retagged.has(id) }));
    await app.db.transaction(async (tx) => {
      for (const { id, secret } of rotated) await tx.update(devices).set({ secretHash: hashSecret(secret) }).where(eq(devices.id, id));
      if (retagged.size) await tx.update(devices).set({ kind: 'tag' }).where(inArray(devices.id, [...retagged]));
      await recordAudit(tx, SYSTEM_ACTOR, { action: 'rotate-secret', entity: 'device', after: { demo_devices: rotated.length, retagged: retagged.size } });
    });
    result.push(...rotated);
  }
  for (let next = 0; next < registering; next++) {
    const kind = next < newTags ? 'tag' : 'phone';
    const created = await registerDevice(app.db, SYSTEM_ACTOR, { id: `${DEMO_DEVICE_PREFIX}${randomUUID()}`, kind, prisoner_id: untracked[next]?.id ?? null });
    result.push({ id: created.id, secret: created.secret, tag: kind === 'tag' });
  }
  await app.tracking.registry.refreshAll(app.db);
  const ordered = [...result.filter((d) => d.tag), ...result.filter((d) => !d.tag)];
  return { devices: ordered.map(({ id, secret }) => ({ id, secret })), tags: ordered.filter((d) => d.tag).length };
}

/**
 * The demo's readers along the blocks' corridors, registered once; each start gives them fresh
 * secrets kept in memory for the simulator, as the demo devices get.
 */
async function demoReaders(app: App, site: PrisonSite): Promise<SimulatedReader[]> {
  const points = site.readerPoints();
  const result: SimulatedReader[] = [];
  await app.db.transaction(async (tx) => {
    for (const point of points) {
      const secret = newDeviceSecret();
      const [lat, lng] = site.toLatLng(point.at);
      await tx
        .insert(readers)
        .values({ id: point.id, name: point.name, latitude: lat, longitude: lng, radiusM: 10, blockId: point.block, secretHash: hashSecret(secret) })
        .onConflictDoUpdate({ target: readers.id, set: { secretHash: hashSecret(secret) } });
      result.push({ id: point.id, secret, at: point.at });
    }
    await recordAudit(tx, SYSTEM_ACTOR, { action: 'rotate-secret', entity: 'reader', after: { demo_readers: result.length } });
  });
  await app.readers.reload();
  return result;
}

/** Seeds and starts the demo; `stop` halts the simulator (the server's shutdown calls it first). */
export async function startDemoTracking(app: App): Promise<{ stop(): Promise<void> }> {
  const site = new PrisonSite(app.config.MAP_CENTER_LAT, app.config.MAP_CENTER_LNG);
  await seedGeofences(app, site);
  await seedBlockAreas(app, site);
  await seedDemoSitePlan(app.db, site);
  const { devices: simulated, tags } = await demoDevices(app, app.config.SIMULATOR_DEVICES ?? DEFAULT_MAX_DEVICES);
  if (simulated.length === 0) return { stop: async () => undefined };
  // The OsmAnd port opens in an onListen hook that `listen` does not wait for.
  for (let i = 0; i < 50 && app.osmandPort() === null; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const osmandPort = app.osmandPort();
  const httpPort = (app.server.address() as AddressInfo).port;
  const url = osmandPort ? `http://127.0.0.1:${osmandPort}` : `http://127.0.0.1:${httpPort}${API_PREFIX}/ingest/osmand`;
  let reported = false;
  const simulatedReaders = await demoReaders(app, site);
  // Over the site's broker when there is one, as real readers; else the HTTP route.
  const sightings = app.config.MQTT_URL ? mqttSightingTransport(app.config.MQTT_URL) : httpSightingTransport(`http://127.0.0.1:${httpPort}${API_PREFIX}/ingest/sightings`);
  let sightingReported = false;
  const simulator = new Simulator({
    readers: simulatedReaders,
    sightings,
    indoorDevices: tags,
    onSightingError: (error) => {
      if (!sightingReported) app.log.warn({ err: error }, 'simulator: sightings were not accepted');
      sightingReported = true;
    },
    site,
    devices: simulated,
    transport: osmandTransport(url),
    rateHz: 0.5,
    breachEverySeconds: 45,
    onError: (error) => {
      // One line is enough: the same cause usually fails every device.
      if (!reported) app.log.warn({ err: error }, 'simulator: a fix was not accepted');
      reported = true;
    },
  });
  simulator.start();
  app.log.info({ devices: simulated.length, url, readers: simulatedReaders.length }, 'demo simulator walking trackers through the OsmAnd protocol, and tags past the corridor readers');
  return {
    stop: async () => {
      await simulator.stop();
      // Demo devices left online would read as "offline" alerts on the next start's first check.
      await app.db.update(devices).set({ online: false }).where(inArray(devices.id, simulated.map((d) => d.id))).catch(() => undefined);
    },
  };
}
