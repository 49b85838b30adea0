// The small map of the live picture: the tracker's last known position (grey while offline), with the geofences
// beneath. Loaded on its own (React.lazy from live-picture.tsx) so the map library reaches the details screen only
// when there is a position to draw (docs/decisions/020).
import { useEffect } from 'react';
import { CircleMarker, useMap } from 'react-leaflet';
import type { Geofence } from '@prison/shared/geofence';
import type { ClientSettings } from '@prison/shared/settings';
import { GeofenceLayer } from '../../map/geofence-layer';
import { MapView } from '../../map/map-view';

const MINI_MAP_ZOOM = 17;
const noSelection = () => undefined;

function FollowPosition({ latitude, longitude }: { latitude: number; longitude: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([latitude, longitude], Math.max(map.getZoom(), MINI_MAP_ZOOM), { animate: false });
  }, [map, latitude, longitude]);
  return null;
}

export default function MiniMap({
  settings,
  geofences,
  latitude,
  longitude,
  online,
}: {
  settings: ClientSettings;
  geofences: Geofence[];
  latitude: number;
  longitude: number;
  online: boolean;
}) {
  return (
    <div
      className="h-56 overflow-hidden rounded-md border border-slate-200"
      data-testid="live-mini-map"
      data-lat={latitude}
      data-lng={longitude}
      data-online={online}
    >
      <MapView settings={{ ...settings, mapCenter: { lat: latitude, lng: longitude } }} className="h-full w-full">
        <GeofenceLayer geofences={geofences} selectedId={null} onSelect={noSelection} />
        <FollowPosition latitude={latitude} longitude={longitude} />
        <CircleMarker
          center={[latitude, longitude]}
          radius={9}
          // A Leaflet option read when the path is made (setStyle, which pathOptions goes through, ignores it).
          className="prisoner-mini-marker"
          pathOptions={{
            color: '#ffffff',
            weight: 3,
            fillColor: online ? '#15803d' : '#64748b',
            fillOpacity: 1,
          }}
        />
      </MapView>
    </div>
  );
}
