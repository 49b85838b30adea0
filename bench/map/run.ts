// bench/map: frame times of the live map in headless Chromium with 1,000 and 10,000 moving markers.
//
// It builds the web app, starts the real server on a temporary PGlite, logs in and opens /live-map?testHooks.
// Positions are a synthetic feed pushed through the page's test hook (window.__liveMap.feed), the same entry the
// socket events use: every 250 ms (the server's 4-per-second batch rate) every marker gets a new position, so all
// markers glide all the time. Frame times are requestAnimationFrame deltas measured in the page; above the layer's
// pixel threshold a worker draws the markers, so the page's frames can outrun them: "marker pictures drawn per
// second" counts the pictures actually drawn (the layer's framesDrawn), the figure to hold against 60 fps.
// Baselines in the same run: the empty map (0 markers) and 1,000 Leaflet SVG circle markers (DOM elements) moved
// the same way. Canvas markers carry the four colours (decision 026: a quarter each Critical, Warning,
// Informational, none); the labelled run is at zoom 17, where every marker in view has a label (at most 300 drawn).
//
// Then the replay of everyone: 500 trackers x one hour of fixes (one per 10 s) stored through the batch
// ingestion API, /replay played at x10; baseline: the empty map's frames in the same run.
//
//   npm run map -w @prison/bench            (BENCH_SECONDS=5, BENCH_PORT=3325, BENCH_COUNTS=1000,10000, BENCH_REPLAY=1)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { percentile, printFigures, type Figure } from '../lib/report';
import { REPLAY_TRACKERS, measureReplay, seedReplay } from './replay-scenario';

const root = path.resolve(import.meta.dirname, '../..');
const port = Number(process.env.BENCH_PORT ?? 3325);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const counts = (process.env.BENCH_COUNTS ?? '1000,10000').split(',').map(Number);
const admin = { username: 'bench-admin', password: 'bench-password-123' };
const baseURL = `http://127.0.0.1:${port}`;

function buildWeb(outDir: string) {
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
    // A test build: the page's test hook is compiled out of production builds.
    env: { ...process.env, VITE_TEST_HOOKS: '1' },
  });
  if (result.status !== 0) throw new Error('web build failed');
}

async function startServer(webDist: string, dataDir: string): Promise<ChildProcess> {
  const server = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'false',
      DEVICE_SECRET_REQUIRED: 'false', // OsmAnd by device id, as the baseline was measured
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      OSMAND_PORT: String(port + 1),
      MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      WEB_DIST: webDist,
    },
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/readyz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('server did not become ready');
}

/** canvas: the live map's layer as shipped; canvas-drawimage: the same layer forced to one drawImage per marker. */
type Mode = 'canvas' | 'canvas-drawimage' | 'svg';

/** Runs in the page: N markers around the map's centre, all moved every 250 ms, frame deltas for `ms`. */
interface Measurement {
  deltas: number[];
  /** Milliseconds spent over the measured window. */
  spent: { draw: number; apply: number; feed: number };
  /** Duration of each marker-layer draw (one per frame). */
  draws: number[];
  /** Pictures of the markers drawn (by the layer on the main thread or by its pixel worker): the honest frame rate. */
  markerFrames: number;
  /** Duration of each frame drawn in the pixel worker (above the layer's pixel threshold). */
  workerDraws: number[];
  /** When each picture of the markers was drawn by the pixel worker (performance.now()). */
  pictureTimes: number[];
}

async function measure(page: Page, count: number, mode: Mode, ms: number, zoom?: number): Promise<Measurement> {
  return page.evaluate(
    async ({ count, mode, ms, zoom }) => {
      type Hook = {
        feed: {
          snapshot(s: Record<string, unknown>): void;
          changes(c: { changed: Record<string, unknown>; gone: string[] }): void;
        };
        map: { getBounds(): { getSouth(): number; getNorth(): number; getWest(): number; getEast(): number } } & Record<
          string,
          unknown
        >;
      };
      const hook = (window as unknown as { __liveMap: Hook }).__liveMap;
      const view = hook.map as unknown as {
        getZoom(): number;
        setZoom(zoom: number, options: object): void;
      };
      const zoomBefore = view.getZoom();
      if (zoom !== undefined) {
        view.setZoom(zoom, { animate: false });
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const bounds = hook.map.getBounds();
      const south = bounds.getSouth();
      const west = bounds.getWest();
      const height = bounds.getNorth() - south;
      const width = bounds.getEast() - west;
      const positions = Array.from({ length: count }, () => ({
        lat: south + Math.random() * height,
        lng: west + Math.random() * width,
      }));
      const step = () => {
        for (const p of positions) {
          p.lat = Math.min(south + height, Math.max(south, p.lat + (Math.random() - 0.5) * height * 0.01));
          p.lng = Math.min(west + width, Math.max(west, p.lng + (Math.random() - 0.5) * width * 0.01));
        }
      };

      let tick: () => void;
      let cleanup: () => void;
      const layer = (hook as unknown as { layer: { pixelPathThreshold: number } }).layer;
      const defaultThreshold = layer.pixelPathThreshold;
      if (mode === 'canvas-drawimage') layer.pixelPathThreshold = Number.POSITIVE_INFINITY;
      if (mode !== 'svg') {
        const snapshot = (): Record<string, unknown> => {
          const all: Record<string, unknown> = {};
          positions.forEach(
            (p, i) =>
              (all[`bench-${i}`] = {
                id: `bench-${i}`,
                prisonerId: i,
                name: `Bench ${i}`,
                // A cell each, so every label ("B1 C-42") is its own text, as real names and cells are.
                cellId: `C-${i}`,
                latitude: p.lat,
                longitude: p.lng,
                trackingId: `bench-${i}`,
              }),
          );
          return all;
        };
        // A quarter of the prisoners each with an open Critical, Warning, Informational alert, a quarter with none.
        const levels = ['Critical', 'Warning', 'Informational'];
        const worst = new Map<number, string>();
        for (let i = 0; i < count; i++) if (i % 4 < 3) worst.set(i, levels[i % 4]!);
        (hook.feed as unknown as { setAlertLevels(worst: Map<number, string>): void }).setAlertLevels(worst);
        hook.feed.snapshot(snapshot());
        tick = () => {
          step();
          hook.feed.changes({ changed: snapshot(), gone: [] });
        };
        cleanup = () => {
          hook.feed.snapshot({});
          layer.pixelPathThreshold = defaultThreshold;
          if (zoom !== undefined) view.setZoom(zoomBefore, { animate: false });
        };
      } else {
        // Baseline: Leaflet's own SVG circle markers (one DOM element each), glided by one rAF loop the same way.
        const L = (
          window as unknown as {
            L: {
              circleMarker(
                ll: [number, number],
                o: object,
              ): { addTo(m: unknown): unknown; setLatLng(ll: [number, number]): void; remove(): void };
            };
          }
        ).L;
        const markers = positions.map((p) => L.circleMarker([p.lat, p.lng], { radius: 7, renderer: undefined }));
        markers.forEach((m) => m.addTo(hook.map));
        let from = positions.map((p) => ({ ...p }));
        let to = positions.map((p) => ({ ...p }));
        let start = performance.now();
        let frame = 0;
        const glide = (now: number) => {
          const t = Math.min(1, (now - start) / 1000);
          markers.forEach((m, i) =>
            m.setLatLng([
              from[i]!.lat + (to[i]!.lat - from[i]!.lat) * t,
              from[i]!.lng + (to[i]!.lng - from[i]!.lng) * t,
            ]),
          );
          frame = requestAnimationFrame(glide);
        };
        frame = requestAnimationFrame(glide);
        tick = () => {
          step();
          const now = performance.now();
          const t = Math.min(1, (now - start) / 1000);
          from = from.map((f, i) => ({ lat: f.lat + (to[i]!.lat - f.lat) * t, lng: f.lng + (to[i]!.lng - f.lng) * t }));
          to = positions.map((p) => ({ ...p }));
          start = now;
        };
        cleanup = () => {
          cancelAnimationFrame(frame);
          markers.forEach((m) => m.remove());
        };
      }

      // Where the frame budget goes: time in the layer's draw, in applying batches, and in making the feed.
      const spent = { draw: 0, apply: 0, feed: 0 };
      const draws: number[] = [];
      let recording = false;
      const timed = (target: Record<string, unknown>, key: string, bucket: keyof typeof spent) => {
        const own = Object.prototype.hasOwnProperty.call(target, key);
        const original = target[key] as (...args: unknown[]) => unknown;
        target[key] = (...args: unknown[]) => {
          const start = performance.now();
          const result = original.apply(target, args);
          const took = performance.now() - start;
          spent[bucket] += took;
          if (bucket === 'draw' && recording) draws.push(took);
          return result;
        };
        // The layer's draw is an own property (an arrow function): put it back rather than delete it.
        return () => (own ? (target[key] = original) : delete target[key]);
      };
      const hookAny = hook as unknown as { layer: Record<string, unknown>; feed: Record<string, unknown> };
      const untimeDraw = timed(hookAny.layer, 'draw', 'draw');
      const counted = hook as unknown as {
        layer: { framesDrawn: number; onPixelFrame: ((drawMs: number, at: number) => void) | null };
      };
      const workerDraws: number[] = [];
      const pictureTimes: number[] = [];
      counted.layer.onPixelFrame = (drawMs, at) => {
        if (!recording) return;
        workerDraws.push(drawMs);
        pictureTimes.push(at);
      };
      const untimeApply = timed(hookAny.feed, 'apply', 'apply');
      const feedTimer = setInterval(() => {
        const start = performance.now();
        tick();
        spent.feed += performance.now() - start;
      }, 250);
      // Warm up for a second, then record.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      spent.draw = spent.apply = spent.feed = 0;
      recording = true;
      const framesBefore = counted.layer.framesDrawn;
      const deltas: number[] = await new Promise((resolve) => {
        const recorded: number[] = [];
        let last = performance.now();
        const end = last + ms;
        const frame = (now: number) => {
          recorded.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(frame);
          else resolve(recorded);
        };
        requestAnimationFrame(frame);
      });
      const markerFrames = counted.layer.framesDrawn - framesBefore;
      counted.layer.onPixelFrame = null;
      clearInterval(feedTimer);
      untimeDraw();
      untimeApply();
      cleanup();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { deltas, spent, draws, markerFrames, workerDraws, pictureTimes };
    },
    { count, mode, ms, zoom },
  );
}

type Profiling = { session: CDPSession };

/** BENCH_PROFILE=moving (or labels): a CPU profile of the page's main thread over the largest run (or the labelled one). */
async function startProfile(page: Page): Promise<Profiling> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  return { session };
}

/** Prints the functions with the most self time (main thread), a line each. */
async function printProfile({ session }: Profiling) {
  const { profile } = await session.send('Profiler.stop');
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\nCPU profile of the main thread (${(total / 1000).toFixed(1)} s sampled), self time:`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
  }
}

/** Intervals between pictures, counted by frames of 16.7 ms: "1 frame: 290, 2 frames: 5, ...". */
function histogram(gaps: number[]): string {
  const counts = new Map<number, number>();
  for (const gap of gaps) {
    const frames = Math.max(1, Math.round(gap / (1000 / 60)));
    counts.set(frames, (counts.get(frames) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0]).map(([frames, n]) => `${frames} frame${frames > 1 ? 's' : ''}: ${n}`).join(', ');
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'prison-bench-map-'));
  const webDist = path.join(root, '.tmp', `web-dist-bench-map-${port}`);
  let server: ChildProcess | null = null;
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    console.log('building the web app...');
    buildWeb(webDist);
    console.log('starting the server on a temporary PGlite...');
    server = await startServer(webDist, path.join(work, 'data'));
    const context = await browser.newContext({ baseURL, viewport: { width: 1600, height: 900 } });
    const login = await context.request.post('/api/v1/admin/login', { data: admin });
    if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
    const page = await context.newPage();
    // tsx (esbuild keepNames) wraps named functions in __name(); the functions sent to the page need it defined.
    await page.addInitScript({ content: 'window.__name = (fn) => fn;' });
    await page.goto('/live-map?testHooks=1');
    await page.waitForFunction(() => Boolean((window as unknown as { __liveMap?: { map: unknown } }).__liveMap?.map));

    const ms = seconds * 1000;
    const summary = ({ deltas, spent, draws, markerFrames, workerDraws, pictureTimes }: Measurement) => {
      const sorted = [...deltas].sort((a, b) => a - b);
      const gaps = pictureTimes.slice(1).map((at, i) => at - pictureTimes[i]!);
      const sortedWorkerDraws = [...workerDraws].sort((a, b) => a - b);
      const sortedDraws = [...draws].sort((a, b) => a - b);
      const total = deltas.reduce((a, b) => a + b, 0);
      const share = (value: number) => (value / total) * 100;
      return {
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        fps: (deltas.length / total) * 1000,
        markerFps: (markerFrames / total) * 1000,
        workerDrawMedian: workerDraws.length ? percentile(sortedWorkerDraws, 50) : undefined,
        workerDrawP95: workerDraws.length ? percentile(sortedWorkerDraws, 95) : undefined,
        /** Pictures drawn more than a frame and a half after the one before: a frame without new markers. */
        lateGaps: gaps.filter((gap) => gap > 25).length,
        gapHistogram: histogram(gaps),
        draw: share(spent.draw),
        // The median resists the preemptions of a shared machine better than frame deltas do.
        drawMedian: percentile(sortedDraws, 50),
        apply: share(spent.apply),
        feed: share(spent.feed),
      };
    };
    const empty = summary(await measure(page, 0, 'canvas', ms));
    const svg1000 = summary(await measure(page, 1000, 'svg', ms));
    const figures: Figure[] = [];
    const largest = Math.max(...counts);
    for (const count of counts) {
      const profiling = process.env.BENCH_PROFILE === 'moving' && count === largest ? await startProfile(page) : null;
      const result = summary(await measure(page, count, 'canvas', ms));
      if (profiling) await printProfile(profiling);
      // The same layer drawing one drawImage per marker, measured right after (at 10,000 the layer writes pixels).
      const perMarker = count === largest ? summary(await measure(page, count, 'canvas-drawimage', ms)) : null;
      const label = `canvas layer, ${count.toLocaleString('en-US')} moving markers`;
      figures.push({
        name: `${label}: p50 frame`,
        value: result.p50,
        unit: 'ms',
        baseline: empty.p50,
        target: '16.7 ms = 60 fps',
      });
      figures.push({ name: `${label}: p95 frame`, value: result.p95, unit: 'ms', baseline: empty.p95 });
      figures.push({ name: `${label}: frames per second`, value: result.fps, unit: 'fps', baseline: empty.fps });
      // The page's frames can outrun the markers' when a worker draws them: this is the figure that counts.
      figures.push({
        name: `${label}: marker pictures drawn per second`,
        value: result.markerFps,
        unit: 'fps',
        target: '60 fps',
      });
      if (result.workerDrawMedian !== undefined) {
        figures.push({ name: `${label}: median draw in the pixel worker`, value: result.workerDrawMedian, unit: 'ms' });
        figures.push({ name: `${label}: p95 draw in the pixel worker`, value: result.workerDrawP95!, unit: 'ms' });
        figures.push({ name: `${label}: pictures more than 25 ms after the one before`, value: result.lateGaps, unit: '' });
        console.log(`${label}: intervals between the worker's pictures: ${result.gapHistogram}`);
      }
      figures.push({
        name: `${label}: median marker draw per frame`,
        value: result.drawMedian,
        unit: 'ms',
        baseline: perMarker?.drawMedian,
      });
      figures.push({ name: `${label}: main thread in marker drawing`, value: result.draw, unit: '%' });
      figures.push({ name: `${label}: main thread merging batches`, value: result.apply, unit: '%' });
      figures.push({ name: `${label}: main thread making the synthetic feed`, value: result.feed, unit: '%' });
      if (perMarker) {
        const base = `baseline: canvas with one drawImage per marker, ${count.toLocaleString('en-US')} moving`;
        figures.push({ name: `${base}: p50 frame`, value: perMarker.p50, unit: 'ms' });
        figures.push({ name: `${base}: p95 frame`, value: perMarker.p95, unit: 'ms' });
        figures.push({ name: `${base}: frames per second`, value: perMarker.fps, unit: 'fps' });
      }
    }
    // Labels are drawn from zoom 17 on (decision 026): the largest count again with every marker in view labelled.
    const profilingLabels = process.env.BENCH_PROFILE === 'labels' ? await startProfile(page) : null;
    const labelled = summary(await measure(page, largest, 'canvas', ms, 17));
    if (profilingLabels) await printProfile(profilingLabels);
    const labelledName = `canvas layer, ${largest.toLocaleString('en-US')} moving markers at zoom 17 (labels)`;
    figures.push({ name: `${labelledName}: p50 frame`, value: labelled.p50, unit: 'ms', baseline: empty.p50 });
    figures.push({ name: `${labelledName}: p95 frame`, value: labelled.p95, unit: 'ms', baseline: empty.p95 });
    figures.push({
      name: `${labelledName}: frames per second`,
      value: labelled.fps,
      unit: 'fps',
      baseline: empty.fps,
      target: '60 fps',
    });
    figures.push({ name: `${labelledName}: marker pictures drawn per second`, value: labelled.markerFps, unit: 'fps' });
    figures.push({ name: `${labelledName}: median marker draw per frame`, value: labelled.drawMedian, unit: 'ms' });
    figures.push({
      name: 'baseline: SVG (DOM) circle markers, 1,000 moving: p50 frame',
      value: svg1000.p50,
      unit: 'ms',
    });
    figures.push({
      name: 'baseline: SVG (DOM) circle markers, 1,000 moving: p95 frame',
      value: svg1000.p95,
      unit: 'ms',
    });
    figures.push({
      name: 'baseline: SVG (DOM) circle markers, 1,000 moving: frames per second',
      value: svg1000.fps,
      unit: 'fps',
    });
    // The replay of everyone, 500 trackers over one hour played at x10 (BENCH_REPLAY=0 skips it).
    if (process.env.BENCH_REPLAY !== '0') {
      console.log(`storing one hour of fixes for ${REPLAY_TRACKERS} trackers...`);
      const window = await seedReplay(context.request);
      const replay = await measureReplay(page, window, ms);
      const name = `replay, ${REPLAY_TRACKERS} trackers over one hour at x10 (${replay.markers} on the map)`;
      figures.push({ name: `${name}: marker pictures drawn per second`, value: replay.markerFps, unit: 'fps', baseline: empty.fps, target: '60 fps' });
      figures.push({ name: `${name}: page frames per second`, value: replay.pageFps, unit: 'fps', baseline: empty.fps });
      figures.push({ name: `${name}: load (answer and first picture)`, value: replay.loadMs, unit: 'ms' });
    }
    printFigures(
      `Live map frame times, headless Chromium (software rendering, 1600x900), ${seconds} s per run, every marker moved every 250 ms; baseline column = empty map (frames) or one drawImage per marker (draw)`,
      figures,
    );
  } finally {
    await browser.close();
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
