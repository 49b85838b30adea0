import { GeofenceIndex, linearScanClassify } from '/work/main/apps/server/src/tracking/geofence-index';
import { destinationPoint, type Geofence } from '@prison/shared';
const fences: Geofence[] = [];
for (let i = 0; i < 10000; i++) {
  const [lat, lng] = [52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15];
  const common = { geofence_id: `g${i}`, name: 'x', type: 'Positive' as const, alert_type: 'Warning' as const, dwell_seconds: 0, buffer_meters: 5, radius: null, center_lat: null, center_lng: null, coordinates: null };
  if (i % 2) fences.push({ ...common, shape: 'Circle', radius: 100, center_lat: lat, center_lng: lng });
  else { const ring: [number, number][] = []; for (let k = 0; k < 32; k++) ring.push(destinationPoint(lat, lng, 100, (360 * k) / 32)); fences.push({ ...common, shape: 'Polygon', coordinates: ring }); }
}
const index = new GeofenceIndex(fences);
const out = new Uint8Array(fences.length);
let t = performance.now(); let c0 = process.cpuUsage();
for (let i = 0; i < 200; i++) linearScanClassify(index, 52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15, out);
let c = process.cpuUsage(c0);
console.log('linear per scan ms', (performance.now() - t) / 200, 'cpu', (c.user + c.system) / 1000 / 200);
t = performance.now(); c0 = process.cpuUsage(); let n = 0;
for (let i = 0; i < 200000; i++) n += index.query(52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15);
c = process.cpuUsage(c0);
console.log('query per call us', (performance.now() - t) / 200, 'cpu', (c.user + c.system) / 200, 'cand', n / 200000);
