import { GeofenceIndex } from '/work/main/apps/server/src/tracking/geofence-index';
const common = { geofence_id: `g`, name: 'x', type: 'Positive' as const, alert_type: 'Warning' as const, dwell_seconds: 0, buffer_meters: 5, radius: null, center_lat: null, center_lng: null, coordinates: null };
const index = new GeofenceIndex([{ ...common, shape: 'Circle', radius: 100, center_lat: 52, center_lng: 5 }]);
const f = index.fences[0]!;
// eslint-disable-next-line
console.log((globalThis as any).eval('(o) => %HasFastProperties(o)')(f), (globalThis as any).eval('(o) => %HasFastProperties(o)')(f.box));
