// The base map: Leaflet through react-leaflet, tiles from the configured URL. Tiles fail to load on an offline
// machine; the map, its shapes and markers work without them.
import type { ReactNode, RefObject } from 'react';
import type L from 'leaflet';
import { MapContainer, TileLayer } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import type { ClientSettings } from '@prison/shared';

interface MapViewProps {
  settings: ClientSettings;
  children?: ReactNode;
  className?: string;
  mapRef?: RefObject<L.Map | null>;
}

export function MapView({ settings, children, className, mapRef }: MapViewProps) {
  return (
    <MapContainer
      center={[settings.mapCenter.lat, settings.mapCenter.lng]}
      zoom={settings.mapZoom}
      className={className}
      ref={mapRef}
      // Shapes are SVG; the markers have their own canvas layer.
      preferCanvas={false}
      worldCopyJump
    >
      <TileLayer url={settings.mapTileUrl} attribution="&copy; OpenStreetMap contributors" />
      {children}
    </MapContainer>
  );
}
