// bench/map's replay scenario: 500 trackers over one hour, stored through the batch ingestion API,
// played on /replay at x10; pictures of the markers per second (the layer's framesDrawn) and page frames per second.
import type { APIRequestContext, Page } from '@playwright/test';

export const REPLAY_TRACKERS = Number(process.env.BENCH_REPLAY_TRACKERS ?? 500);
const FIX_EVERY_MS = 10_000;
const HOUR_MS = 3_600_000;

/** Stores an hour of fixes for each tracker (a random walk around one point) ending a few minutes ago. */
export async function seedReplay(request: APIRequestContext): Promise<{ from: string; to: string }> {
  const to = Date.now() - 5 * 60_000;
  const from = to - HOUR_MS;
  const ids = Array.from({ length: REPLAY_TRACKERS }, (_, i) => `replay-${i}`);
  // Each tracker's fixes carry the secret its creation answered (devices need one, decision 038).
  const secrets = new Map<string, string>();
  for (const id of ids) {
    const res = await request.post('/api/v1/devices', { data: { id, name: `Replay ${id}`, kind: 'phone' } });
    if (!res.ok()) throw new Error(`device ${id}: ${res.status()} ${await res.text()}`);
    secrets.set(id, ((await res.json()) as { secret: string }).secret);
  }
  const walkers = ids.map(() => ({ lat: 51.5 + (Math.random() - 0.5) * 0.004, lng: -0.12 + (Math.random() - 0.5) * 0.006 }));
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const res = await request.post('/api/v1/ingest/positions', { data: { positions: batch } });
    if (!res.ok()) throw new Error(`ingest: ${res.status()} ${await res.text()}`);
    const { stored } = (await res.json()) as { stored: number };
    if (stored !== batch.length) throw new Error(`ingest stored ${stored} of ${batch.length} fixes: ${JSON.stringify(await res.json()).slice(0, 300)}`);
    batch = [];
  };
  for (let t = from; t <= to; t += FIX_EVERY_MS) {
    for (const [i, id] of ids.entries()) {
      const w = walkers[i]!;
      w.lat += (Math.random() - 0.5) * 0.0002;
      w.lng += (Math.random() - 0.5) * 0.0003;
      batch.push({ device_id: id, secret: secrets.get(id), latitude: w.lat, longitude: w.lng, timestamp: new Date(t).toISOString(), accuracy: 5 });
      if (batch.length === 1000) await flush();
    }
  }
  await flush();
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

export interface ReplayMeasurement {
  pageFps: number;
  markerFps: number;
  markers: number;
  loadMs: number;
}

/** Opens the replay, plays it at x10 and counts frames for `ms`. */
export async function measureReplay(page: Page, window: { from: string; to: string }, ms: number): Promise<ReplayMeasurement> {
  const started = Date.now();
  await page.goto(`/replay?from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`);
  await page
    .waitForFunction(() => Boolean((window as unknown as { __replay?: { map: unknown } }).__replay?.map), null, { timeout: 120_000 })
    .catch(async (error: Error) => {
      // Say what the page shows instead of the player (an error, a refusal, a spinner).
      const shown = (await page.locator('main').innerText().catch(() => '')).slice(0, 500);
      throw new Error(`the replay did not open: ${error.message}\npage: ${page.url()}\n${shown}`);
    });
  const loadMs = Date.now() - started;
  return page.evaluate(async (ms) => {
    type Hook = { layer: { framesDrawn: number; size: number }; play(): void; setSpeed(speed: number): void };
    const hook = (window as unknown as { __replay: Hook }).__replay;
    hook.setSpeed(10);
    hook.play();
    // Let the first markers appear and the page settle before counting.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const firstPictures = hook.layer.framesDrawn;
    let frames = 0;
    const begin = performance.now();
    await new Promise<void>((resolve) => {
      requestAnimationFrame(function tick(now) {
        frames++;
        if (now - begin < ms) requestAnimationFrame(tick);
        else resolve();
      });
    });
    const spent = performance.now() - begin;
    return {
      pageFps: (frames / spent) * 1000,
      markerFps: ((hook.layer.framesDrawn - firstPictures) / spent) * 1000,
      markers: hook.layer.size,
      loadMs: 0,
    };
  }, ms).then((result) => ({ ...result, loadMs }));
}
