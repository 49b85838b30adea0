// The base map: Leaflet through react-leaflet, tiles from the configured URL (MAP_TILES: another server, ours from a
// local file, or none), the default site plan above them (decision 065). Tiles of another server fail to load on an
// offline machine; the map, its plan, shapes and markers work without them, and the map says so once.
import { clsx } from 'clsx';
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import type L from 'leaflet';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import './map-view.css';
import type { ClientSettings } from '@prison/shared/settings';
import type { Corners } from './map-start';
import { MapControl } from './map-control';
import { DefaultSitePlan } from './site-plan-layer';

/** Where the map opens: a centre and zoom, or a box to fit. Absent: the configured start point and zoom. */
export type InitialView = { center: [number, number]; zoom: number } | { bounds: Corners };

interface MapViewProps {
  settings: ClientSettings;
  children?: ReactNode;
  /** Draw the default site plan (the placement screen draws its own preview instead). */
  sitePlan?: boolean;
  className?: string;
  mapRef?: RefObject<L.Map | null>;
  initialView?: InitialView;
}

export const TILES_UNAVAILABLE_TEXT = 'Map tiles are unavailable — showing geofences on a plain background.';

export function MapView({ settings, children, className, mapRef, initialView, sitePlan = true }: MapViewProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const start =
    initialView && 'bounds' in initialView
      ? { bounds: initialView.bounds, boundsOptions: { padding: [24, 24] as [number, number], maxZoom: 18 } }
      : {
          center: initialView?.center ?? ([settings.mapCenter.lat, settings.mapCenter.lng] as [number, number]),
          zoom: initialView?.zoom ?? settings.mapZoom,
        };
  return (
    <MapContainer
      {...start}
      // isolate: Leaflet's panes and controls (z-index 400 to 1000) stay below the sticky top bar (decision 044).
      className={clsx('isolate', !settings.mapTileUrl && 'map-without-tiles', className)}
      ref={mapRef}
      // Shapes are SVG; the markers have their own canvas layer.
      preferCanvas={false}
      worldCopyJump
    >
      {settings.mapTileUrl && (
        <TileLayer
          url={settings.mapTileUrl}
          attribution={settings.mapTileUrl.startsWith('/') ? '' : '&copy; OpenStreetMap contributors'}
          // One failed tile is enough to say so; the notice is shown once and stays.
          eventHandlers={{ tileerror: () => setTilesFailed(true) }}
        />
      )}
      {tilesFailed && <TilesUnavailable />}
      <FollowBoxSize />
      {sitePlan && <DefaultSitePlan />}
      {children}
    </MapContainer>
  );
}

/**
 * Tells Leaflet when the map's box changes size for another reason than the window's: a toast in the band below the
 * page, the Critical bar above the map growing or going. Leaflet itself follows only the window, so it kept the old
 * size: strips it believed hidden stayed blank, the markers' canvas kept the old size, and its centre and bounds were
 * wrong. `pan: false` keeps what the operator sees still (the top left stays put) while the box grows or shrinks.
 */
function FollowBoxSize() {
  const map = useMap();
  useEffect(() => {
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => map.invalidateSize({ pan: false }));
    });
    observer.observe(map.getContainer());
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [map]);
  return null;
}

/** The notice, and a plain background instead of Leaflet's grey with broken tiles. */
function TilesUnavailable() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.classList.add('map-tiles-unavailable');
    return () => container.classList.remove('map-tiles-unavailable');
  }, [map]);
  return (
    <MapControl position="bottomleft">
      <p
        role="status"
        data-testid="map-tiles-unavailable"
        className="max-w-xs rounded bg-white/95 px-2 py-1 text-xs text-slate-800 shadow"
      >
        {TILES_UNAVAILABLE_TEXT}
      </p>
    </MapControl>
  );
}
