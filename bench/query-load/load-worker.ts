// The clients of bench/query-load, in their own thread so the server keeps the main one to itself: trackers sending
// fixes over OsmAnd HTTP at a steady rate (open loop: a slow answer does not slow the sending), a balancer asking
// /readyz every 100 ms, and officers asking who was near. Each phase reports its latencies.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadOptions {
  apiUrl: string;
  readyzUrl: string;
  osmandUrl: string;
  /** One bearer token per officer. */
  tokens: string[];
  trackers: number;
  fixesPerSecond: number;
  seconds: number;
  /** The stored week: a 7-day window fits from windowStart. */
  windowStart: number;
  /** Timed questions of 1 hour and of 7 days asked one after another. */
  hourRuns: number;
  weekRuns: number;
}

export interface PhaseResult {
  name: string;
  acks: number[];
  readyz: number[];
  near: number[];
  /** Answers other than 200 (status: count). */
  refused: Record<string, number>;
  failedFixes: number;
}

export type WorkerMessage = { kind: 'phase'; result: PhaseResult } | { kind: 'baseline-window'; started: boolean } | { kind: 'done' };

const options = workerData as LoadOptions;
const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const RADIUS_M = 100;
let sequence = 0;

function post(message: WorkerMessage) {
  parentPort!.postMessage(message);
}

/** Fixes and /readyz in the background until stop() resolves the phase's figures. */
function background(result: PhaseResult) {
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const fixTimer = setInterval(() => {
    const i = 1 + (sequence++ % options.trackers);
    const lat = 51.5 + 0.0135 * (((i * 7919) % 1000) / 1000 - 0.5);
    const lng = -0.12 + 0.02 * (((i * 104729) % 997) / 997 - 0.5);
    const t0 = performance.now();
    track(
      fetch(`${options.osmandUrl}/?id=bench-${i}&lat=${lat.toFixed(6)}&lon=${lng.toFixed(6)}&timestamp=${Date.now()}&batt=80`)
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.ok) result.acks.push(performance.now() - t0);
          else result.failedFixes++;
        })
        .catch(() => void result.failedFixes++),
    );
  }, 1000 / options.fixesPerSecond);
  const readyTimer = setInterval(() => {
    const t0 = performance.now();
    track(
      fetch(options.readyzUrl)
        .then(async (res) => {
          await res.arrayBuffer();
          result.readyz.push(performance.now() - t0);
        })
        .catch(() => undefined),
    );
  }, 100);
  return async () => {
    clearInterval(fixTimer);
    clearInterval(readyTimer);
    await Promise.all([...pending]);
  };
}

async function near(token: string, subject: number, from: number, length: number, result: PhaseResult) {
  const url = `${options.apiUrl}/location/near?prisoner_id=${subject}&from=${new Date(from).toISOString()}&to=${new Date(from + length).toISOString()}&radius_m=${RADIUS_M}`;
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (res.ok) result.near.push(performance.now() - t0);
  else result.refused[res.status] = (result.refused[res.status] ?? 0) + 1;
}

const phase = (name: string): PhaseResult => ({ name, acks: [], readyz: [], near: [], refused: {}, failedFixes: 0 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subjectOf = (i: number) => 1 + ((i * 7919) % options.trackers);

async function main() {
  const seconds = options.seconds * 1000;
  // Warm-up: connections, the code paths, the pages of one week (not measured).
  await near(options.tokens[0]!, subjectOf(999), options.windowStart, WEEK, phase('warm'));

  let result = phase('alone');
  let stop = background(result);
  await sleep(seconds);
  await stop();
  post({ kind: 'phase', result });

  result = phase('near 1 hour');
  stop = background(result);
  for (let i = 0; i < options.hourRuns; i++) await near(options.tokens[0]!, subjectOf(i), options.windowStart + ((i * 7 * HOUR) % (WEEK - HOUR)), HOUR, result);
  await stop();
  post({ kind: 'phase', result });

  result = phase('near 7 days');
  stop = background(result);
  for (let i = 0; i < options.weekRuns; i++) await near(options.tokens[0]!, subjectOf(100 + i), options.windowStart, WEEK, result);
  await stop();
  post({ kind: 'phase', result });

  result = phase('4 parallel 7-day near');
  stop = background(result);
  const until = performance.now() + seconds;
  await Promise.all(
    options.tokens.slice(0, 4).map(async (token, officer) => {
      for (let i = 0; performance.now() < until; i++) await near(token, subjectOf(200 + officer * 50 + i), options.windowStart, WEEK, result);
    }),
  );
  await stop();
  post({ kind: 'phase', result });

  // One account asking five at once: its limit answers the rest 429 at once.
  result = phase('one account, 5 at once');
  await Promise.all([0, 1, 2, 3, 4].map((i) => near(options.tokens[0]!, subjectOf(400 + i), options.windowStart, WEEK, result)));
  post({ kind: 'phase', result });

  // The baseline: the main thread asks 7-day questions the former way while the fixes go on.
  result = phase('baseline: 7-day near matched on the server thread');
  stop = background(result);
  post({ kind: 'baseline-window', started: true });
  await new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
  await stop();
  post({ kind: 'phase', result });
  post({ kind: 'done' });
}

await main();
