// The readers' live side in each process: the registry in memory (loaded at ready, re-read every few seconds for the
// writes of other processes), what was heard written every 2 s, and the leader's silent-reader sweep.
import type { FastifyInstance } from 'fastify';
import { listReaderRows, toPlace, writeActivity } from './reader-repository';
import { ReaderRegistry } from './reader-registry';
import { SightingResolver } from './sighting-resolver';
import { sweepSilentReaders } from './silent-readers';

const ACTIVITY_WRITE_MS = 2_000;
const REGISTRY_REFRESH_MS = 10_000;

export class ReaderRuntime {
  readonly registry = new ReaderRegistry();
  /** One per process: MQTT and HTTP sightings are judged together. */
  readonly resolver = new SightingResolver();
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;

  constructor(private readonly app: FastifyInstance) {}

  async start(): Promise<void> {
    await this.reload();
    const { app } = this;
    const every = (ms: number, work: () => Promise<unknown>, where: string) =>
      this.timers.push(setInterval(() => void work().catch((error) => app.databaseHealth.failed(error, where)), ms).unref());
    every(ACTIVITY_WRITE_MS, () => this.writeActivity(), 'reader activity');
    every(REGISTRY_REFRESH_MS, () => this.reload(), 'reader registry refresh');
    // Checked a few times per silence interval, so an alert comes at most a quarter late.
    const sweepMs = Math.max(250, Math.min(5_000, (app.config.READER_SILENT_SECONDS * 1000) / 4));
    every(sweepMs, () => this.sweep(), 'silent readers');
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.writeActivity().catch(() => undefined);
  }

  /** Re-reads every reader (after a write here; on a timer for the others' writes). */
  async reload(): Promise<void> {
    const rows = await listReaderRows(this.app.db);
    this.registry.replaceAll(rows.map(toPlace));
  }

  async writeActivity(): Promise<void> {
    const activity = this.registry.takeActivity();
    try {
      await writeActivity(this.app.db, activity);
    } catch (error) {
      this.registry.restoreActivity(activity);
      throw error;
    }
  }

  /** The leader's sweep (every process, when alone): this process's activity first, then the alerts. */
  async sweep(now = new Date()): Promise<void> {
    if (this.sweeping || !this.app.cluster.isLeader()) return;
    this.sweeping = true;
    try {
      await this.writeActivity();
      const { raised, ended } = await sweepSilentReaders(this.app.db, this.app.config.READER_SILENT_SECONDS, now);
      if (raised.length > 0) await this.app.cluster.alerts.raised(raised);
      else if (ended > 0) await this.app.cluster.alerts.changed();
    } finally {
      this.sweeping = false;
    }
  }
}
