const a = new Float64Array(40000).map(() => Math.random());
let c0 = process.cpuUsage(); let t = performance.now(); let s = 0;
for (let r = 0; r < 2000; r++) for (let i = 0; i < 40000; i += 4) { if (a[i]! < 0.5 && a[i + 1]! > 0.2) s++; }
const c = process.cpuUsage(c0);
console.log('ns per box check (cpu)', ((c.user + c.system) * 1000) / (2000 * 10000), 'wall', ((performance.now() - t) * 1e6) / (2000 * 10000), s);
