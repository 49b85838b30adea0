// The track on the map: geofences beneath, the line and its fixes, the player's marker, and follow mode.
import { memo, useEffect } from 'react';
import L from 'leaflet';
import { CircleMarker, Polyline, Tooltip, useMap } from 'react-leaflet';
import type { Geofence } from '@prison/shared/geofence';
import type { ClientSettings } from '@prison/shared/settings';
import { GeofenceLayer } from '../../map/geofence-layer';
import { MapView } from '../../map/map-view';
import type { TimedPoint, TrackPosition } from './use-track-player';
import { formatPlayerTime } from '../../lib/time-range';

/** Up to a few thousand fixes: drawn on one canvas, not as DOM nodes. */
const fixRenderer = L.canvas({ padding: 0.5 });
const noSelection = () => undefined;

const TrackLayer = memo(function TrackLayer({ points }: { points: readonly TimedPoint[] }) {
  const map = useMap();
  // Each new track is framed once; panning afterwards is the user's (or follow mode's).
  useEffect(() => {
    if (points.length === 0) return;
    const bounds = L.latLngBounds(points.map((p) => [p.lat, p.lng] as [number, number]));
    map.fitBounds(bounds, { padding: [30, 30], maxZoom: 18, animate: false });
  }, [map, points]);
  const line = points.map((p) => [p.lat, p.lng] as [number, number]);
  return (
    <>
      <Polyline positions={line} pathOptions={{ color: '#1e3a8a', weight: 3, opacity: 0.8 }} />
      {points.map((p, i) => (
        <CircleMarker
          key={`${p.ms}-${i}`}
          center={[p.lat, p.lng]}
          radius={2.5}
          renderer={fixRenderer}
          pathOptions={{ color: '#1e40af', weight: 1, fillOpacity: 0.6 }}
        >
          <Tooltip>{formatPlayerTime(p.ms)}</Tooltip>
        </CircleMarker>
      ))}
    </>
  );
});

function PlayerMarker({ position, follow }: { position: TrackPosition | null; follow: boolean }) {
  const map = useMap();
  useEffect(() => {
    if (follow && position) map.panTo([position.lat, position.lng], { animate: false });
  }, [map, follow, position]);
  if (!position) return null;
  return (
    <CircleMarker
      center={[position.lat, position.lng]}
      radius={8}
      // A Leaflet option read when the path is made (setStyle, which pathOptions goes through, ignores it).
      className="history-player-marker"
      pathOptions={{
        color: '#ffffff',
        weight: 3,
        fillColor: '#dc2626',
        fillOpacity: 1,
      }}
    />
  );
}

export function HistoryMap({
  settings,
  geofences,
  points,
  position,
  follow,
}: {
  settings: ClientSettings;
  geofences: Geofence[];
  points: readonly TimedPoint[];
  position: TrackPosition | null;
  follow: boolean;
}) {
  return (
    <MapView settings={settings} className="h-[60vh] min-h-[360px] w-full rounded-lg border border-slate-200">
      <GeofenceLayer geofences={geofences} selectedId={null} onSelect={noSelection} />
      <TrackLayer points={points} />
      <PlayerMarker position={position} follow={follow} />
    </MapView>
  );
}
