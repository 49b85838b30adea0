// The replay on the live map's canvas marker layer: markers placed at the replay clock's interpolated positions (no
// glide: the clock already interpolates), short trails on one canvas, and the geofences as they were.
import { memo, useEffect, useMemo } from 'react';
import L from 'leaflet';
import { Polyline, useMap } from 'react-leaflet';
import type { Geofence } from '@prison/shared/geofence';
import type { ReplayTrack } from '@prison/shared/replay';
import type { ClientSettings } from '@prison/shared/settings';
import { GeofenceLayer } from '../../map/geofence-layer';
import { MapView } from '../../map/map-view';
import { TrackedMarkers } from '../../map/tracked-markers';
import type { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { trailAt } from './replay-clock';

const trailRenderer = L.canvas({ padding: 0.5 });
const noSelection = () => undefined;

/** Frames every track once when the answer arrives. */
function FrameTracks({ tracks }: { tracks: ReplayTrack[] }) {
  const map = useMap();
  useEffect(() => {
    const bounds = L.latLngBounds([]);
    for (const track of tracks) for (let i = 0; i < track.points.length; i += 3) bounds.extend([track.points[i + 1]!, track.points[i + 2]!]);
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [30, 30], maxZoom: 18, animate: false });
  }, [map, tracks]);
  return null;
}

const Trails = memo(function Trails({ tracks, time, selectedId }: { tracks: ReplayTrack[]; time: number; selectedId: string | null }) {
  return (
    <>
      {tracks.map((track) => {
        const line = trailAt(track.points, time);
        if (line.length < 2) return null;
        const selected = track.device_id === selectedId;
        return (
          <Polyline
            key={track.device_id}
            positions={line}
            renderer={trailRenderer}
            interactive={false}
            pathOptions={{ color: selected ? '#b91c1c' : '#1e3a8a', weight: selected ? 4 : 2, opacity: 0.7 }}
          />
        );
      })}
    </>
  );
});

export function ReplayMap({
  settings,
  layer,
  tracks,
  trailTime,
  geofences,
  selectedId,
  mapRef,
}: {
  settings: ClientSettings;
  layer: TrackedMarkersLayer;
  tracks: ReplayTrack[];
  /** The clock as the trails show it (they follow a few times a second; markers every frame). */
  trailTime: number;
  geofences: Geofence[];
  selectedId: string | null;
  mapRef: React.RefObject<L.Map | null>;
}) {
  const framed = useMemo(() => tracks, [tracks]);
  return (
    <MapView settings={settings} mapRef={mapRef} className="h-[60vh] min-h-[360px] w-full rounded-lg border border-slate-200">
      <GeofenceLayer geofences={geofences} selectedId={null} onSelect={noSelection} isMarkerAt={(point) => layer.markerAt(point) !== null} />
      <Trails tracks={tracks} time={trailTime} selectedId={selectedId} />
      <TrackedMarkers layer={layer} />
      <FrameTracks tracks={framed} />
    </MapView>
  );
}
