import { GeofenceEngine } from '../../apps/server/src/tracking/geofence-engine';
// reuse generators by importing run.ts pieces is not possible; quick copy of key parts
import { destinationPoint, type Geofence } from '@prison/shared';
function random(seed: number) { let a = seed >>> 0; return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
const rand = random(1);
const pt = (): [number, number] => { const [a, b] = destinationPoint(52, 5, (rand() - 0.5) * 20000, 0); return destinationPoint(a, b, (rand() - 0.5) * 20000, 90); };
const fences: Geofence[] = [];
for (let i = 0; i < 10000; i++) { const [lat, lng] = pt(); fences.push({ geofence_id: 'g' + i, name: 'x', shape: 'Circle', type: i % 10 === 0 ? 'Negative' : 'Positive', alert_type: 'Warning', radius: 30 + rand() * 270, center_lat: lat, center_lng: lng, coordinates: null, dwell_seconds: 0, buffer_meters: 5 }); }
const engine = new GeofenceEngine(fences);
const D = 1000; const pos = Array.from({ length: D }, pt); const ids = pos.map((_, i) => 'd' + i);
let time = 0; let tr = 0;
for (let i = 0; i < 100000; i++) { const d = i % D; tr += engine.evaluate(ids[d]!, pos[d]![0], pos[d]![1], new Date(++time)).length; }
console.log('warm transitions', tr);
const devs = (engine as any).devices as Map<string, { states: unknown[] }>;
let st = 0; for (const d of devs.values()) st += d.states.length; console.log('avg states', st / devs.size);
tr = 0; const c0 = process.cpuUsage();
for (let i = 0; i < 1e6; i++) { const d = i % D; const p = pos[d]!; p[0] += (rand() - 0.5) * 0.00003; p[1] += (rand() - 0.5) * 0.00005; tr += engine.evaluate(ids[d]!, p[0], p[1], new Date(++time)).length; }
const u = process.cpuUsage(c0); console.log('engine ns', (u.user + u.system) / 1e3, 'transitions per fix', tr / 1e6);
const idx = (engine as any).index; const c1 = process.cpuUsage(); let n = 0;
for (let i = 0; i < 1e6; i++) { const d = i % D; const p = pos[d]!; n += idx.query(p[0], p[1]); }
const u1 = process.cpuUsage(c1); console.log('query ns', (u1.user + u1.system) / 1e3, n / 1e6);
