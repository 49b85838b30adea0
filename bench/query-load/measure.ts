// The measured part of bench/query-load: the real server on the filled database in this thread, its clients in a
// worker (load-worker.ts); the figures of each phase, and the baseline: the former way, where every candidate fix
// was matched in JavaScript on the server's thread, asked while the same fixes arrive.
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { API_PREFIX, NEAR_MATCH_SECONDS, type NearResponse } from '@prison/shared';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/client';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';
import { fixesInProbes, personTrack } from '../../apps/server/src/modules/investigations/investigations-repository';
import { whoWasNear } from '../../apps/server/src/modules/investigations/investigations-service';
import { peopleNear } from '../../apps/server/src/modules/investigations/near-matching';
import { probesFor } from '../../apps/server/src/modules/investigations/near-probes';
import { percentile, printFigures } from '../lib/report';
import type { Layout } from './fill';
import type { LoadOptions, PhaseResult, WorkerMessage } from './load-worker';

const PASSWORD = 'measure twice, cut once';
const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const RADIUS_M = 100;
const FIXES_PER_SECOND = 100;

interface Options {
  seconds: number;
  log: (text: string) => void;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const p = (values: number[], q: number) => percentile(sorted(values), q);

/** The former way: the candidates read, then matched on this thread (peopleNear). */
async function nearTheFormerWay(database: Database, subject: number, from: number, to: number) {
  const person = { kind: 'prisoner' as const, id: subject };
  const margin = NEAR_MATCH_SECONDS * 1000;
  const track = await personTrack(database.db, person, from - margin, to + margin);
  const candidates = await fixesInProbes(database.db, probesFor(track, RADIUS_M, from, to), person, []);
  return peopleNear(candidates, track, RADIUS_M);
}

/** The same people, times and distances (to the centimetre) from the former way and the database's. */
function sameAnswer(former: Awaited<ReturnType<typeof nearTheFormerWay>>, now: NearResponse): boolean {
  const a = former.map((x) => [x.prisonerId, x.staffId, x.firstAt, x.lastAt, Math.round(x.minDistanceM * 100) / 100, x.fixes].join('|'));
  const b = now.data.map((x) => [x.prisoner_id, x.staff_id, Date.parse(x.first_at), Date.parse(x.last_at), x.min_distance_m, x.fixes].join('|'));
  return JSON.stringify(a.sort()) === JSON.stringify(b.sort());
}

export async function measure(database: Database, layout: Layout, { seconds, log }: Options): Promise<void> {
  const config = loadConfig({
    DEMO: 'false',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    DEVICE_SECRET_REQUIRED: 'false',
    OSMAND_PORT: '0',
    HOST: '127.0.0.1',
    // Long enough for a 7-day question while four run at once on this shared machine: the bench measures what the
    // others wait, not the refusal (the default, 20 s, may refuse them here).
    HEAVY_QUERY_TIMEOUT_MS: '180000',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  for (let i = 0; i < 100 && app.osmandPort() === null; i++) await new Promise((r) => setTimeout(r, 20));
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const tokens: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const username = `officer${i}`;
    await createAdmin(database.db, { username, password: PASSWORD }).catch(() => undefined);
    const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: PASSWORD } });
    tokens.push(login.json<{ token: string }>().token);
  }
  const windowStart = layout.start + HOUR;
  const options: LoadOptions = {
    apiUrl: `${base}${API_PREFIX}`,
    readyzUrl: `${base}/readyz`,
    osmandUrl: `http://127.0.0.1:${app.osmandPort()}`,
    tokens,
    trackers: layout.trackers,
    fixesPerSecond: FIXES_PER_SECOND,
    seconds,
    windowStart,
    hourRuns: 20,
    weekRuns: 5,
  };
  const phases = new Map<string, PhaseResult>();
  const formerWeek: number[] = [];
  const formerHour: number[] = [];
  let formerStall = 0;
  let answersChecked = 0;
  const worker = new Worker(new URL('./load-worker-entry.mjs', import.meta.url), { workerData: options });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (message: WorkerMessage) => {
        if (message.kind === 'phase') {
          phases.set(message.result.name, message.result);
          log(`${message.result.name}: ${message.result.acks.length} fixes acknowledged, ${message.result.near.length} near answers, refused ${JSON.stringify(message.result.refused)}`);
        } else if (message.kind === 'done') resolve();
        else {
          void (async () => {
            const delay = monitorEventLoopDelay({ resolution: 5 });
            delay.enable();
            for (let i = 0; i < 3; i++) {
              const subject = 1 + (((600 + i) * 7919) % layout.trackers);
              const from = windowStart + i * 11 * HOUR;
              let t0 = performance.now();
              const hour = await nearTheFormerWay(database, subject, from, from + HOUR);
              formerHour.push(performance.now() - t0);
              const query = { prisoner_id: subject, from: new Date(from).toISOString(), radius_m: RADIUS_M };
              if (!sameAnswer(hour, await whoWasNear(database, { ...query, to: new Date(from + HOUR).toISOString() }, [], 60_000))) {
                throw new Error(`near 1 hour of prisoner ${subject}: the database's answer differs from the former one`);
              }
              if (i === 2) continue;
              t0 = performance.now();
              const week = await nearTheFormerWay(database, subject, windowStart, windowStart + WEEK);
              formerWeek.push(performance.now() - t0);
              const weekQuery = { ...query, from: new Date(windowStart).toISOString(), to: new Date(windowStart + WEEK).toISOString() };
              if (!sameAnswer(week, await whoWasNear(database, weekQuery, [], 120_000))) {
                throw new Error(`near 7 days of prisoner ${subject}: the database's answer differs from the former one`);
              }
              answersChecked += 2;
            }
            delay.disable();
            formerStall = delay.max / 1e6;
            worker.postMessage('baseline done');
          })().catch(reject);
        }
      });
    });
  } finally {
    await worker.terminate();
    await app.close();
  }
  const alone = phases.get('alone')!;
  const hour = phases.get('near 1 hour')!;
  const week = phases.get('near 7 days')!;
  const parallel = phases.get('4 parallel 7-day near')!;
  const burst = phases.get('one account, 5 at once')!;
  const baseline = phases.get('baseline: 7-day near matched on the server thread')!;
  printFigures(
    `Query load on PostgreSQL: ${(layout.trackers * layout.perTracker).toLocaleString('en-US')} stored fixes ` +
      `(${layout.trackers} trackers, one fix every ${layout.intervalS} s, ${((layout.perTracker * layout.intervalS) / 86_400).toFixed(2)} days), ` +
      `${FIXES_PER_SECOND} live fixes/s over OsmAnd HTTP, radius ${RADIUS_M} m. Baseline = the former way (candidates matched ` +
      `in JavaScript on the server's thread), same run; answers compared on ${answersChecked + 1} questions: equal`,
    [
      { name: 'near 7 days p95', value: p(week.near, 95), unit: 'ms', baseline: Math.max(...formerWeek) },
      { name: 'near 1 hour p95', value: p(hour.near, 95), unit: 'ms', baseline: Math.max(...formerHour), target: '<= 300 ms' },
      { name: 'fix acknowledgement p99 alone', value: p(alone.acks, 99), unit: 'ms' },
      { name: 'fix acknowledgement p99 with 4 parallel 7-day near queries', value: p(parallel.acks, 99), unit: 'ms', baseline: p(baseline.acks, 99), target: '<= 50 ms' },
      { name: '/readyz max with 4 parallel 7-day near queries', value: Math.max(...parallel.readyz), unit: 'ms', baseline: Math.max(...baseline.readyz), target: '<= 100 ms' },
      { name: '/readyz p99 with 4 parallel 7-day near queries', value: p(parallel.readyz, 99), unit: 'ms', baseline: p(baseline.readyz, 99) },
      { name: '7-day near answers during the 4 parallel (count)', value: parallel.near.length, unit: '' },
      { name: '7-day near p95 during the 4 parallel', value: p(parallel.near, 95), unit: 'ms' },
      { name: 'longest stall of the server thread, former way', value: formerStall, unit: 'ms' },
    ],
  );
  log(`one account asking 5 at once: ${burst.near.length} answered, refused ${JSON.stringify(burst.refused)}`);
  log(`fixes not acknowledged: ${[alone, hour, week, parallel, baseline].reduce((n, r) => n + r.failedFixes, 0)}`);
}
