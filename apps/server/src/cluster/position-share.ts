// Positions between the processes of a cluster (decisions 036 and 047): what each process stored is coalesced per
// device and sent to the others as one compact message (columns, not an object per fix) every SHARE_EVERY_MS, and
// not at all while no other process listens on the adapter's channel.
import type { FastifyBaseLogger } from 'fastify';
import { rateLimitedWarnings, type RateLimitedLog } from '../lib/rate-limited-log';
import type { RealtimeServer } from '../plugins/realtime';

/** A device's state after a fix stored by one process, for the others' live maps and monitors. */
export interface SharedPosition {
  id: string;
  revision: number;
  lastSeenAt: number | null;
  lastFixAt: number | null;
  latitude: number;
  longitude: number;
  battery: number | null;
  online: boolean;
}

/** Browsers get deltas every 250 ms: a tenth of a second more costs them nothing they would see. */
export const SHARE_EVERY_MS = 100;
/** How often the number of processes on the channel is asked (a process that joins hears the others within this). */
const COUNT_EVERY_MS = 2_000;
const POSITIONS_EVENT = 'positions';

/** The wire form: one array per field, in the order of `SharedPosition`'s fields. */
type Columns = [string[], number[], (number | null)[], (number | null)[], number[], number[], (number | null)[], (0 | 1)[]];

function toColumns(positions: Iterable<SharedPosition>): Columns {
  const columns: Columns = [[], [], [], [], [], [], [], []];
  for (const p of positions) {
    columns[0].push(p.id);
    columns[1].push(p.revision);
    columns[2].push(p.lastSeenAt);
    columns[3].push(p.lastFixAt);
    columns[4].push(p.latitude);
    columns[5].push(p.longitude);
    columns[6].push(p.battery);
    columns[7].push(p.online ? 1 : 0);
  }
  return columns;
}

function fromColumns([ids, revisions, seen, fixes, lats, lngs, batteries, online]: Columns): SharedPosition[] {
  return ids.map((id, i) => ({
    id,
    revision: revisions[i]!,
    lastSeenAt: seen[i] ?? null,
    lastFixAt: fixes[i] ?? null,
    latitude: lats[i]!,
    longitude: lngs[i]!,
    battery: batteries[i] ?? null,
    online: online[i] === 1,
  }));
}

export class PositionShare {
  private pending = new Map<string, SharedPosition>();
  private readonly handlers: ((positions: SharedPosition[]) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private counter: NodeJS.Timeout | null = null;
  /** Whether another process listens; true until first asked, so nothing is held back at start. */
  private othersListen = true;
  /** Processes on the channel when last asked: when more join, they are sent every device's latest position. */
  private servers = 0;
  /**
   * Every device's latest position stored here, kept also while nobody listens: a process that joins (or restarts)
   * would otherwise miss what was stored before it was counted, until each device's next fix.
   */
  private readonly latest = new Map<string, SharedPosition>();
  /** Tried every 100 ms: a failing share is one line per interval. */
  private readonly failures: RateLimitedLog;

  constructor(
    private readonly io: RealtimeServer,
    private readonly canSend: () => boolean,
    log: FastifyBaseLogger,
  ) {
    this.failures = rateLimitedWarnings(log);
  }

  start(): void {
    this.io.on(POSITIONS_EVENT, (columns: Columns) => {
      const positions = fromColumns(columns);
      for (const handler of this.handlers) handler(positions);
    });
    this.timer = setInterval(() => this.flush(), SHARE_EVERY_MS);
    this.timer.unref();
    const count = () =>
      void this.io
        .of('/')
        .adapter.serverCount()
        .then((n) => {
          if (n > this.servers && n > 1) for (const [id, position] of this.latest) this.pending.set(id, position);
          this.servers = n;
          this.othersListen = n > 1;
        })
        .catch(() => undefined); // Redis down: keep the last answer; publishing fails fast anyway
    count();
    this.counter = setInterval(count, COUNT_EVERY_MS);
    this.counter.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.counter) clearInterval(this.counter);
    this.timer = this.counter = null;
    this.pending.clear();
    this.latest.clear();
    this.failures.stop();
  }

  /** Positions this process stored: the latest of each device goes out with the next flush. */
  share(positions: SharedPosition[]): void {
    for (const position of positions) this.latest.set(position.id, position);
    if (!this.othersListen) return;
    for (const position of positions) this.pending.set(position.id, position);
  }

  onPositions(handler: (positions: SharedPosition[]) => void): void {
    this.handlers.push(handler);
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    const positions = this.pending.values();
    this.pending = new Map();
    if (!this.othersListen || !this.canSend()) return;
    try {
      this.io.serverSideEmit(POSITIONS_EVENT, toColumns(positions));
    } catch (error) {
      this.failures.error('sharing positions failed', { err: error });
    }
  }
}
