// bench/map writer: the CPU time of one picture's pixel writing (frame-writer.ts) at 10,000 to 50,000 markers on a
// 1600x900 frame, in Node, against the same run's baseline: the same writer copying every sprite in drawing order
// (what it did for every count before decision 048). CPU time (process.cpuUsage) rather than wall time, because on a
// shared machine the wall clock mostly measures the other processes. The markers are scattered at random afresh for
// every picture, four colours of the layer's dot, as bench/map's moving markers are.
//
//   npm run map:writer -w @prison/bench          (BENCH_COUNTS=10000,20000,50000, BENCH_PICTURES=60)
import { loadavg } from 'node:os';
import { FrameWriter } from '../../apps/web/src/map/frame-writer';
import { spritePixels } from '../../apps/web/src/map/sprite-pixels';
import { dotSprite, SIZE } from '../../apps/web/src/map/synthetic-sprites';
import { percentile, printFigures, type Figure } from '../lib/report';

const counts = (process.env.BENCH_COUNTS ?? '10000,20000,50000').split(',').map(Number);
const pictures = Number(process.env.BENCH_PICTURES ?? 60);
const width = 1600;
const height = 900;
const sprites = [
  dotSprite(220, 38, 38),
  dotSprite(217, 119, 6),
  dotSprite(37, 99, 235),
  dotSprite(22, 163, 74),
].map((rgba) => spritePixels(rgba, SIZE));

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

const figures: Figure[] = [];
const loadBefore = loadavg()[0]!;
for (const count of counts) {
  const frame = new Int32Array(width * height);
  const markers = new Int32Array(count * 3);
  let seed = count;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const writer = new FrameWriter();
  const inOrder = new FrameWriter(Number.POSITIVE_INFINITY);
  const times = { writer: [] as number[], inOrder: [] as number[] };
  // Alternating, so both see the same machine; the first pictures warm the JIT up and are not counted.
  for (let p = -5; p < pictures; p++) {
    for (let i = 0; i < count; i++) {
      markers[i * 3] = Math.floor(random() * (width + SIZE)) - SIZE + 1;
      markers[i * 3 + 1] = Math.floor(random() * (height + SIZE)) - SIZE + 1;
      markers[i * 3 + 2] = i % 4;
    }
    const a = cpuMs(() => writer.draw(frame, width, height, sprites, markers, count));
    const b = cpuMs(() => inOrder.draw(frame, width, height, sprites, markers, count));
    if (p >= 0) {
      times.writer.push(a);
      times.inOrder.push(b);
    }
  }
  const median = (list: number[]) => percentile([...list].sort((x, y) => x - y), 50);
  figures.push({
    name: `${count.toLocaleString('en-US')} markers, 1600x900: CPU per picture (median)`,
    value: median(times.writer),
    unit: 'ms',
    baseline: median(times.inOrder),
  });
}
printFigures(
  `Pixel writer, ${pictures} pictures per count, load average ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}; baseline = every sprite copied in drawing order`,
  figures,
);
