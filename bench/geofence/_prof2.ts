import { compileGeofence, containmentOf, GeofenceIndex } from '/work/main/apps/server/src/tracking/geofence-index';
import { destinationPoint, type Geofence } from '@prison/shared';
const common = { geofence_id: `g`, name: 'x', type: 'Positive' as const, alert_type: 'Warning' as const, dwell_seconds: 0, buffer_meters: 5, radius: null, center_lat: null, center_lng: null, coordinates: null };
const ring: [number, number][] = []; for (let k = 0; k < 32; k++) ring.push(destinationPoint(52, 5, 100, (360 * k) / 32));
const c = compileGeofence({ ...common, shape: 'Circle', radius: 100, center_lat: 52, center_lng: 5 }, 0);
const p = compileGeofence({ ...common, shape: 'Polygon', coordinates: ring }, 1);
for (const [name, f] of [['circle', c], ['polygon', p]] as const) {
  const c0 = process.cpuUsage(); let s = 0;
  for (let i = 0; i < 1e6; i++) s += containmentOf(f, 52 + (i % 100) * 0.00002 - 0.001, 5 + (i % 77) * 0.00002 - 0.0008);
  const u = process.cpuUsage(c0); console.log(name, 'ns', (u.user + u.system) / 1e3, s);
}
const fences: Geofence[] = [];
for (let i = 0; i < 10000; i++) fences.push({ ...common, geofence_id: 'g' + i, shape: 'Circle', radius: 100, center_lat: 52 + Math.random() * 0.18 - 0.09, center_lng: 5 + Math.random() * 0.3 - 0.15 });
const index = new GeofenceIndex(fences);
const c0 = process.cpuUsage(); let n = 0;
for (let i = 0; i < 1e6; i++) n += index.query(52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15);
const u = process.cpuUsage(c0); console.log('query ns', (u.user + u.system) / 1e3, n / 1e6);
{
  const c0 = process.cpuUsage(); let n = 0;
  for (let i = 0; i < 1e6; i++) n += index.query(52 + Math.random() * 0.18 - 0.09, 5 + Math.random() * 0.3 - 0.15);
  const u = process.cpuUsage(c0); console.log('query again ns', (u.user + u.system) / 1e3, n / 1e6);
}
