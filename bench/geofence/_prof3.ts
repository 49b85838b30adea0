import Flatbush from 'flatbush';
const n = 10000; const t = new Flatbush(n);
for (let i = 0; i < n; i++) { const x = 5 + Math.random() * 0.3 - 0.15, y = 52 + Math.random() * 0.18 - 0.09; t.add(x - 0.0015, y - 0.001, x + 0.0015, y + 0.001); }
t.finish();
let c0 = process.cpuUsage(); let s = 0;
for (let i = 0; i < 1e6; i++) { const x = 5 + Math.random() * 0.3 - 0.15, y = 52 + Math.random() * 0.18 - 0.09; s += t.search(x, y, x, y).length; }
let u = process.cpuUsage(c0); console.log('flatbush search ns', (u.user + u.system) / 1e3, s / 1e6);
// count boxes visited
const boxes = t._boxes, lb = t._levelBounds; console.log('levels', lb, 'nodeSize', t.nodeSize);
