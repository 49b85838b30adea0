import { blitAll, spritePixels } from '/work/main/apps/web/src/map/sprite-pixels';
// An 18-px anti-aliased disc: fill radius 7, white ring to 8 (coverage by 4x4 supersampling).
function disc(fill: [number, number, number]): Uint8ClampedArray {
  const size = 18, c = 9, rgba = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    let inner = 0, outer = 0;
    for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) {
      const d = Math.hypot(x + (sx + 0.5) / 4 - c, y + (sy + 0.5) / 4 - c);
      if (d <= 6) inner++; if (d <= 8) outer++;
    }
    const a = outer / 16, f = outer ? inner / outer : 0;
    const i = (y * size + x) * 4;
    rgba[i] = fill[0] * f + 255 * (1 - f); rgba[i + 1] = fill[1] * f + 255 * (1 - f); rgba[i + 2] = fill[2] * f + 255 * (1 - f); rgba[i + 3] = Math.round(a * 255);
  }
  return rgba;
}
const sprites = [[220, 38, 38], [245, 158, 11], [37, 99, 235], [22, 163, 74]].map((f) => spritePixels(disc(f as any), 18));
console.log('runs per sprite', sprites[0]!.runs.length / 4, 'opaque px', sprites[0]!.runColour.length, 'edge px', sprites[0]!.edgeColour.length);
const W = 1600, H = 900, N = 10000;
const frame = new Int32Array(W * H);
const markers = new Int32Array(N * 3);
for (let i = 0; i < N; i++) { markers[i * 3] = Math.floor(Math.random() * (W - 18)); markers[i * 3 + 1] = Math.floor(Math.random() * (H - 18)); markers[i * 3 + 2] = i % 4; }
const times: number[] = [];
for (let k = 0; k < 200; k++) {
  const t0 = performance.now();
  frame.fill(0);
  const t1 = performance.now();
  blitAll(frame, W, H, sprites, markers, N);
  const t2 = performance.now();
  if (k >= 50) times.push(t2 - t0);
  if (k === 199) console.log('fill', (t1 - t0).toFixed(2), 'blit', (t2 - t1).toFixed(2));
  for (let i = 0; i < N; i++) markers[i * 3] = Math.min(W - 18, Math.max(0, markers[i * 3]! + (k % 2 ? 1 : -1)));
}
times.sort((a, b) => a - b);
console.log('median frame ms', times[times.length >> 1]!.toFixed(2), 'p95', times[Math.floor(times.length * 0.95)]!.toFixed(2));
