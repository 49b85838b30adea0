// Walks simulated trackers around the prison site and reports their fixes through a real device protocol
// (OsmAnd HTTP or Socket.IO), as phones would. Now and then one of them breaks a rule, so alerts appear.
import { io as connect, type Socket } from 'socket.io-client';
import type { PrisonSite, Point } from './site';
import { READER_RANGE_M, rssiAt, type SightingTag, type SightingTransport, type SimulatedReader } from './sightings';

export interface SimulatedDevice {
  id: string;
  /** Sent with every fix when known (OsmAnd accepts the id alone; Socket.IO needs it). */
  secret?: string;
}

export interface Fix {
  deviceId: string;
  secret?: string;
  latitude: number;
  longitude: number;
  timestamp: number;
  battery: number;
  speed: number;
}

/** Sends one fix; resolves when the server acknowledged it (stored), rejects otherwise. */
export interface Transport {
  send(fix: Fix): Promise<void>;
  close(): Promise<void>;
}

/** OsmAnd over HTTP GET, to the OsmAnd port (any path) or to /api/v1/ingest/osmand. */
export function osmandTransport(url: string): Transport {
  const base = url.replace(/\/$/, '');
  return {
    async send(fix) {
      const params = new URLSearchParams({
        id: fix.deviceId,
        lat: fix.latitude.toFixed(7),
        lon: fix.longitude.toFixed(7),
        timestamp: String(fix.timestamp),
        batt: fix.battery.toFixed(0),
        speed: (fix.speed / 0.514444).toFixed(2), // knots, as Traccar Client sends
      });
      if (fix.secret) params.set('secret', fix.secret);
      const res = await fetch(`${base}${base.includes('/ingest/osmand') ? '' : '/'}?${params}`);
      if (!res.ok) throw new Error(`OsmAnd answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    },
    close: async () => undefined,
  };
}

/** The phone app's Socket.IO protocol: one connection per device, `updateLocation` with an acknowledgement. */
export function socketTransport(url: string, devices: SimulatedDevice[]): Transport {
  const sockets = new Map<string, Socket>();
  const socketOf = (device: SimulatedDevice) => {
    let socket = sockets.get(device.id);
    if (!socket) {
      socket = connect(url, { transports: ['websocket'], auth: { deviceId: device.id, secret: device.secret ?? '' } });
      sockets.set(device.id, socket);
    }
    return socket;
  };
  const byId = new Map(devices.map((d) => [d.id, d]));
  return {
    async send(fix) {
      const socket = socketOf(byId.get(fix.deviceId) ?? { id: fix.deviceId, secret: fix.secret });
      const ack = (await socket.timeout(10_000).emitWithAck('updateLocation', {
        trackingId: fix.deviceId,
        latitude: fix.latitude,
        longitude: fix.longitude,
        timestamp: fix.timestamp,
        battery: fix.battery,
      })) as { ok: boolean; message?: string };
      if (!ack.ok) throw new Error(ack.message ?? 'fix refused');
    },
    close: async () => {
      for (const socket of sockets.values()) socket.disconnect();
      sockets.clear();
    },
  };
}

type Goal = 'wander' | 'yard' | 'restricted' | 'escape' | 'return';

interface Walker {
  device: SimulatedDevice;
  at: Point;
  target: Point;
  goal: Goal;
  /** Metres per second. */
  speed: number;
  /** Seconds to stay at the target before the next one. */
  pause: number;
  battery: number;
  nextSendAt: number;
  inFlight: boolean;
  /** Tracked by tag: walks the blocks' corridors and is reported by the readers, not by its own fixes. */
  indoor: boolean;
}

export interface SimulatorOptions {
  site: PrisonSite;
  devices: SimulatedDevice[];
  transport: Transport;
  /** Fixes per second per device. */
  rateHz: number;
  /** Seconds between staged breaches (the first comes after a fifth of this). */
  breachEverySeconds?: number;
  onError?: (error: unknown, device: SimulatedDevice) => void;
  random?: () => number;
  /** Indoor readers: the first `indoorDevices` devices are tags they see in the corridors. */
  readers?: SimulatedReader[];
  sightings?: SightingTransport;
  indoorDevices?: number;
  onSightingError?: (error: unknown, reader: SimulatedReader) => void;
}

/** Readers report once a second, as most gateways do. */
const SIGHTING_INTERVAL_MS = 1000;

export class Simulator {
  readonly stats = { sent: 0, failed: 0, sightingMessages: 0, sightingsFailed: 0 };
  private nextSightingsAt = 0;
  private readonly walkers: Walker[];
  private timer: NodeJS.Timeout | null = null;
  private lastTick = Date.now();
  private nextBreachAt: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly random: () => number;

  constructor(private readonly options: SimulatorOptions) {
    this.random = options.random ?? Math.random;
    const now = Date.now();
    const interval = 1000 / options.rateHz;
    const indoorCount = options.readers?.length && options.sightings ? Math.min(options.indoorDevices ?? 0, options.devices.length) : 0;
    this.walkers = options.devices.map((device, i) => {
      const indoor = i < indoorCount;
      const at = indoor ? this.pointOnCorridor() : this.pointIn(options.site.ground);
      return {
        indoor,
        device,
        at,
        target: at,
        goal: 'wander',
        speed: 1.2,
        pause: 0,
        battery: 60 + this.random() * 40,
        // Spread the first fixes over one interval, so the load is even.
        nextSendAt: now + (interval * i) / Math.max(1, options.devices.length),
        inFlight: false,
      };
    });
    this.nextBreachAt = now + ((options.breachEverySeconds ?? 45) * 1000) / 5;
  }

  start(): void {
    this.lastTick = Date.now();
    this.timer = setInterval(() => this.tick(), 100);
    this.timer.unref();
  }

  /** Stops sending and waits for the fixes already on their way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
    await this.options.transport.close();
    await this.options.sightings?.close();
  }

  private tick(): void {
    const now = Date.now();
    const dt = (now - this.lastTick) / 1000;
    this.lastTick = now;
    if (now >= this.nextBreachAt && this.walkers.length) {
      this.stageBreach();
      this.nextBreachAt = now + (this.options.breachEverySeconds ?? 45) * 1000;
    }
    for (const walker of this.walkers) {
      this.walk(walker, dt);
      if (!walker.indoor && now >= walker.nextSendAt && !walker.inFlight) this.send(walker, now);
    }
    if (now >= this.nextSightingsAt) {
      this.nextSightingsAt = now + SIGHTING_INTERVAL_MS;
      this.reportSightings(now);
    }
  }

  /** Every reader sends the tags within its range; a tag between two readers is seen by both, the nearer stronger. */
  private reportSightings(now: number): void {
    const { readers, sightings } = this.options;
    if (!readers?.length || !sightings) return;
    for (const reader of readers) {
      const tags: SightingTag[] = [];
      for (const walker of this.walkers) {
        if (!walker.indoor) continue;
        const metres = Math.hypot(walker.at[0] - reader.at[0], walker.at[1] - reader.at[1]);
        if (metres <= READER_RANGE_M) tags.push({ id: walker.device.id, rssi: rssiAt(metres), at: now });
      }
      // A reader with nothing in range still reports (an empty list is its heartbeat), so only a reader that is
      // really down turns silent on the map.
      const sending = sightings
        .send(reader, tags)
        .then(() => {
          this.stats.sightingMessages++;
        })
        .catch((error: unknown) => {
          this.stats.sightingsFailed++;
          this.options.onSightingError?.(error, reader);
        })
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
  }

  private walk(walker: Walker, dt: number): void {
    const [x, y] = walker.at;
    const [tx, ty] = walker.target;
    const distance = Math.hypot(tx - x, ty - y);
    const step = walker.speed * dt;
    if (distance > step) {
      walker.at = [x + ((tx - x) / distance) * step, y + ((ty - y) / distance) * step];
      return;
    }
    walker.at = walker.target;
    walker.pause -= dt;
    if (walker.pause > 0) return;
    this.chooseNext(walker);
  }

  private chooseNext(walker: Walker): void {
    const { site } = this.options;
    // A tag walks its corridor from reader to reader, pausing in between (at a cell door).
    if (walker.indoor) {
      this.aim(walker, 'wander', this.pointOnCorridor(), 0.6 + this.random() * 0.6, 3 + this.random() * 10);
      return;
    }
    // After a breach or a yard visit, go back to the ground between the blocks.
    if (walker.goal !== 'wander') {
      this.aim(walker, 'wander', this.pointIn(site.ground), 1.4, 2);
      return;
    }
    if (this.random() < 0.04) {
      this.aim(walker, 'yard', this.pointInCircle(site.yard.centre, site.yard.radius * 0.6), 1.4, 20);
    } else {
      this.aim(walker, 'wander', this.pointIn(site.ground), 0.8 + this.random() * 0.8, 2 + this.random() * 6);
    }
  }

  /** One walker, the nearest to its goal, heads for a restricted zone or over the wall, then comes back. */
  private stageBreach(): void {
    const { site } = this.options;
    const escape = this.random() < 0.5;
    const target: Point = escape ? [0, 185 + 40] : this.random() < 0.5 ? [140, 95] : site.armoury.centre;
    const walker = this.walkers
      .filter((w) => w.goal === 'wander' && !w.indoor)
      .sort((a, b) => Math.hypot(a.at[0] - target[0], a.at[1] - target[1]) - Math.hypot(b.at[0] - target[0], b.at[1] - target[1]))[0];
    if (!walker) return;
    this.aim(walker, escape ? 'escape' : 'restricted', target, 4, 8);
  }

  private aim(walker: Walker, goal: Goal, target: Point, speed: number, pause: number): void {
    walker.goal = goal;
    walker.target = target;
    walker.speed = speed;
    walker.pause = pause;
  }

  private send(walker: Walker, now: number): void {
    const [latitude, longitude] = this.options.site.toLatLng(walker.at);
    walker.battery = Math.max(5, walker.battery - 0.02);
    walker.inFlight = true;
    walker.nextSendAt = now + 1000 / this.options.rateHz;
    const fix: Fix = {
      deviceId: walker.device.id,
      secret: walker.device.secret,
      latitude,
      longitude,
      timestamp: now,
      battery: walker.battery,
      speed: walker.at === walker.target ? 0 : walker.speed,
    };
    const sending = this.options.transport
      .send(fix)
      .then(() => {
        this.stats.sent++;
      })
      .catch((error: unknown) => {
        this.stats.failed++;
        this.options.onError?.(error, walker.device);
      })
      .finally(() => {
        walker.inFlight = false;
        this.inFlight.delete(sending);
      });
    this.inFlight.add(sending);
  }

  private pointOnCorridor(): Point {
    const corridors = this.options.site.corridors;
    const { from, to } = corridors[Math.floor(this.random() * corridors.length)]!;
    const t = this.random();
    return [from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1])];
  }

  private pointIn({ from, to }: { from: Point; to: Point }): Point {
    return [from[0] + this.random() * (to[0] - from[0]), from[1] + this.random() * (to[1] - from[1])];
  }

  private pointInCircle(centre: Point, radius: number): Point {
    const angle = this.random() * 2 * Math.PI;
    const r = radius * Math.sqrt(this.random());
    return [centre[0] + r * Math.cos(angle), centre[1] + r * Math.sin(angle)];
  }
}
