// bench/caseload: what splitting the live feed by caseload costs the server per tick (decision 051). 10,000 online
// tracked prisoners in 10 blocks and 2,000 of them moved per 250 ms flush, through the real LivePositions and device
// registry; the emit of each group's message is replaced by JSON.stringify of it (Socket.IO encodes a room broadcast
// once, so this is the encoding's share). Baseline in the same run: only browsers of every block (one group, what the
// server did before). Then every block plus one group per block, and every block plus 50 groups of two blocks.
//
//   npm run caseload -w @prison/bench -- [--prisoners 10000] [--moved 2000] [--ticks 200]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { FeedGroup, Realtime } from '../../apps/server/src/plugins/realtime';
import { DeviceRegistry, type TrackedDevice } from '../../apps/server/src/tracking/device-registry';
import { trackedDeviceFixture } from '../../apps/server/src/tracking/tracked-device-fixture';
import { LivePositions } from '../../apps/server/src/tracking/live-positions';

const { values } = parseArgs({
  options: {
    prisoners: { type: 'string', default: '10000' },
    moved: { type: 'string', default: '2000' },
    ticks: { type: 'string', default: '200' },
  },
});
const PRISONERS = Number(values.prisoners);
const MOVED = Number(values.moved);
const TICKS = Number(values.ticks);
const BLOCKS = Array.from({ length: 10 }, (_, i) => `Block ${String.fromCharCode(65 + i)}`);

function registryOf(count: number): { registry: DeviceRegistry; devices: TrackedDevice[] } {
  const registry = new DeviceRegistry();
  const devices: TrackedDevice[] = [];
  const byId = (registry as unknown as { byId: Map<string, TrackedDevice> }).byId;
  for (let i = 0; i < count; i++) {
    const device = trackedDeviceFixture(`device-${i}`, Date.now(), {
      name: `Tag ${i}`,
      prisonerId: i + 1,
      prisonerName: `Prisoner ${i}`,
      cellId: `C-${i % 500}`,
      block: BLOCKS[i % BLOCKS.length]!,
    });
    byId.set(device.id, device);
    devices.push(device);
  }
  return { registry, devices };
}

function measure(label: string, caseloads: string[][]): void {
  const { registry, devices } = registryOf(PRISONERS);
  let bytes = 0;
  const groups: FeedGroup[] = caseloads.map((caseload) => ({
    caseload,
    emitter: { emit: (_event: string, message: unknown) => (bytes += JSON.stringify(message).length) } as never,
  }));
  const realtime = { feedGroups: () => groups, hasFullSetBrowsers: () => false } as unknown as Realtime;
  const live = new LivePositions(realtime, registry);
  const times: number[] = [];
  for (let tick = 0; tick < TICKS; tick++) {
    for (let j = 0; j < MOVED; j++) {
      const device = devices[(tick * MOVED + j) % devices.length]!;
      device.latitude = 51.5 + ((tick + j) % 100) * 1e-5;
      live.moved(device);
    }
    const start = performance.now();
    live.flush();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`| ${label} | ${caseloads.length} | ${at(0.5)} | ${at(0.95)} | ${Math.round(bytes / TICKS / 1024)} |`);
}

console.log(`${PRISONERS} prisoners in ${BLOCKS.length} blocks, ${MOVED} moved per flush, ${TICKS} flushes`);
console.log(
  '| browsers connected | caseload groups | flush median (ms) | flush p95 (ms) | encoded per flush (KiB, all groups) |',
);
console.log('|---|---|---|---|---|');
measure('every block only (baseline: as before)', [[]]);
measure('every block + one group per block', [[], ...BLOCKS.map((block) => [block])]);
measure('every block + 50 groups of two blocks', [
  [],
  ...Array.from({ length: 50 }, (_, i) => [BLOCKS[i % 10]!, BLOCKS[(i + 3) % 10]!]),
]);
