// The cluster's building blocks on a real PostgreSQL (decision 036): the change feed (LISTEN/NOTIFY), the leader
// lease (an advisory lock), and the engine state one process hands to another. The whole cluster, with processes,
// Redis and sockets, is test/cluster.test.ts.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { GeofenceEngine } from '../tracking/geofence-engine';
import { circleFence, east, perimeterCorners, polygonFence } from '../tracking/geofence-test-shapes';
import { ChangeFeed, CHANGES_CHANNEL } from './change-feed';
import { LeaderLease } from './leader';
import { createScratchDatabase } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';

const log = pino({ level: 'silent' });
const adminUrl = inject('postgresAdminUrl');
const until = (check: () => boolean, timeoutMs: number) => waitFor('the condition', check, timeoutMs, 20);

describe.skipIf(!adminUrl)('cluster on PostgreSQL', () => {
  let url = '';
  let name = '';
  let notifier: pg.Pool;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase('prison_cluster_unit', { migrated: false });
    url = scratch.url;
    name = scratch.name;
    notifier = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterAll(async () => {
    await notifier?.end();
    await scratch?.drop();
  });

  const feed = (node: string) =>
    new ChangeFeed({
      node,
      connectionString: url,
      notify: async (channel, payload) => {
        await notifier.query('select pg_notify($1, $2)', [channel, payload]);
      },
      log,
    });

  it('applies a change where it was made at once and in every other process within a second, once each', async () => {
    const one = feed('one');
    const two = feed('two');
    const seen: string[] = [];
    one.on('geofences', (_data, local) => seen.push(`one ${local ? 'local' : 'remote'}`));
    two.on('geofences', (_data, local) => seen.push(`two ${local ? 'local' : 'remote'}`));
    two.on('device', (data) => seen.push(`two device ${(data as { id: string }).id}`));
    await one.start();
    await two.start();
    try {
      const sent = Date.now();
      await one.publish('geofences');
      // Applied here before it was announced (the other process may already have it too by now).
      expect(seen[0]).toBe('one local');
      await until(() => seen.length === 2, 1_000);
      expect(Date.now() - sent).toBeLessThan(1_000);
      await one.publish('device', { id: 'tag-7', reassigned: false });
      await until(() => seen.length === 3, 1_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toEqual(['one local', 'two remote', 'two device tag-7']);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('splits a long list of offline devices so each notification fits, and loses none', async () => {
    const one = feed('one');
    const two = feed('two');
    const ids: string[] = [];
    two.on('devices-offline', (data) => ids.push(...(data as { ids: string[] }).ids));
    await one.start();
    await two.start();
    try {
      const all = Array.from({ length: 450 }, (_, i) => `device-${i}-${randomBytes(16).toString('hex')}`);
      await one.publish('devices-offline', { ids: all });
      await until(() => ids.length === all.length, 2_000);
      expect(ids).toEqual(all);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('resyncs after its connection was cut, and receives changes again', async () => {
    const one = feed('one');
    const two = feed('two');
    let resyncs = 0;
    let remote = 0;
    two.onResync(() => resyncs++);
    two.on('escorts', () => remote++);
    await one.start();
    await two.start();
    try {
      const killer = new pg.Client({ connectionString: url });
      await killer.connect();
      await killer.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = $2`, [name, `listen ${CHANGES_CHANNEL}`]);
      await killer.end();
      await until(() => resyncs >= 1, 5_000);
      expect(two.connected).toBe(true);
      await one.publish('escorts');
      await until(() => remote === 1, 1_000);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('elects exactly one leader, and a survivor takes over within seconds when it goes', async () => {
    const first = new LeaderLease({ connectionString: url, log, tryEveryMs: 200 });
    const second = new LeaderLease({ connectionString: url, log, tryEveryMs: 200 });
    let secondBecame = 0;
    const secondWithHook = new LeaderLease({ connectionString: url, log, tryEveryMs: 200, onChange: (leader) => leader && secondBecame++ });
    await first.start();
    await second.start();
    await secondWithHook.start();
    try {
      expect(first.isLeader()).toBe(true);
      expect(second.isLeader() || secondWithHook.isLeader()).toBe(false);
      const gone = Date.now();
      // Its connection ends with it, as with kill -9: PostgreSQL releases the lock.
      await first.stop();
      await until(() => second.isLeader() || secondWithHook.isLeader(), 2_000);
      expect(Date.now() - gone).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(Number(second.isLeader()) + Number(secondWithHook.isLeader())).toBe(1);
      expect(secondBecame).toBe(secondWithHook.isLeader() ? 1 : 0);
    } finally {
      await first.stop();
      await second.stop();
      await secondWithHook.stop();
    }
  });

  it('takes no lock and keeps no connection when stopped while its first try is under way', async () => {
    const stoppedEarly = new LeaderLease({ connectionString: url, log, tryEveryMs: 100 });
    const starting = stoppedEarly.start(); // its connection is opening now
    await stoppedEarly.stop();
    await starting;
    expect(stoppedEarly.isLeader()).toBe(false);
    const other = new LeaderLease({ connectionString: url, log, tryEveryMs: 100 });
    await other.start();
    try {
      expect(other.isLeader()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300)); // no timer of the stopped one tries again
      expect(stoppedEarly.isLeader()).toBe(false);
    } finally {
      await other.stop();
    }
  });
});

describe('engine state handed between processes', () => {
  const T0 = Date.parse('2026-01-01T00:00:00Z');
  const at = (seconds: number) => new Date(T0 + seconds * 1000);
  const perimeter = polygonFence(perimeterCorners, { geofence_id: 'perimeter', name: 'Perimeter' });
  const yard = circleFence({ geofence_id: 'yard', name: 'Yard', radius: 100, dwell_seconds: 30 });
  const kinds = (transitions: { kind: string; geofence: { name: string } }[]) => transitions.map((t) => `${t.kind} ${t.geofence.name}`);
  const handOver = (from: GeofenceEngine, to: GeofenceEngine, id: string) => to.importDevice(id, JSON.parse(JSON.stringify(from.exportDevice(id))));

  it('continues a running violation without raising it again, and ends it once', () => {
    const one = new GeofenceEngine([perimeter, yard]);
    const two = new GeofenceEngine([perimeter, yard]);
    one.evaluate('d', ...east(500), at(0));
    expect(kinds(one.evaluate('d', ...east(2000), at(1)))).toEqual(['start Perimeter']);
    handOver(one, two, 'd');
    expect(two.evaluate('d', ...east(2100), at(2))).toEqual([]);
    expect(kinds(two.evaluate('d', ...east(500), at(3)))).toEqual(['end Perimeter']);
    handOver(two, one, 'd');
    expect(kinds(one.evaluate('d', ...east(2000), at(4)))).toEqual(['start Perimeter']);
  });

  it('carries a running dwell: the violation starts when the dwell is over, on the process that holds it', () => {
    const one = new GeofenceEngine([perimeter, yard]);
    const two = new GeofenceEngine([perimeter, yard]);
    one.evaluate('d', ...east(500), at(0));
    expect(one.evaluate('d', ...east(50), at(10))).toEqual([]); // in the yard: dwell of 30 s starts
    handOver(one, two, 'd');
    expect(two.evaluate('d', ...east(40), at(25))).toEqual([]);
    expect(kinds(two.evaluate('d', ...east(45), at(41)))).toEqual(['start Yard']);
  });

  it('answers null for a device never evaluated, and forgets it on import of null', () => {
    const one = new GeofenceEngine([perimeter]);
    expect(one.exportDevice('nobody')).toBeNull();
    one.evaluate('d', ...east(500), at(0));
    one.importDevice('d', null);
    expect(one.exportDevice('d')).toBeNull();
  });
});
