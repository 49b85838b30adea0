import Flatbush from 'flatbush';
const n = 10000; const t = new Flatbush(n);
for (let i = 0; i < n; i++) { const x = 5 + Math.random() * 0.3 - 0.15, y = 52 + Math.random() * 0.18 - 0.09; t.add(x - 0.0015, y - 0.001, x + 0.0015, y + 0.001); }
t.finish();
const boxes = t._boxes as Float64Array, indices = t._indices, levelBounds = t._levelBounds; const nodeSize4 = t.nodeSize * 4, numItems4 = t.numItems * 4;
const stack = new Int32Array(200);
let checks = 0;
function q(lat: number, lng: number) {
  let top = 0, hits = 0; let nodeIndex = boxes.length - 4; let level = levelBounds.length - 1;
  for (;;) {
    const end = Math.min(nodeIndex + nodeSize4, levelBounds[level]!);
    const isNode = nodeIndex >= numItems4;
    for (let pos = nodeIndex; pos < end; pos += 4) {
      checks++;
      if (lng < boxes[pos]! || lat < boxes[pos + 1]! || lng > boxes[pos + 2]! || lat > boxes[pos + 3]!) continue;
      const index = indices[pos >> 2]!;
      if (isNode) { stack[top++] = index; stack[top++] = level - 1; } else hits++;
    }
    if (top === 0) break;
    level = stack[--top]!; nodeIndex = stack[--top]!;
  }
  return hits;
}
let c0 = process.cpuUsage(); let s = 0;
for (let i = 0; i < 1e6; i++) s += q(52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15);
let u = process.cpuUsage(c0); console.log('own ns', (u.user + u.system) / 1e3, s / 1e6, 'checks', checks / 1e6);
