// Where the live map opens and how it keeps its place: the operator's last view in this browser (else every
// geofence's box, else the configured start), the view remembered after every move, and the "Fit site" button.
import { useEffect, useState } from 'react';
import { useMap, useMapEvents } from 'react-leaflet';
import type { Geofence } from '@prison/shared/geofence';
import type { ClientSettings } from '@prison/shared/settings';
import { Button } from '../../../components/ui/button';
import { MapControl } from '../../../map/map-control';
import { geofenceCorners, readStoredView, storeView } from '../../../map/map-start';
import type { InitialView } from '../../../map/map-view';

/**
 * Where the map opens, fixed once the geofences are known: the operator's last view in this browser, else the box of
 * every geofence, else (view undefined) the configured start point and zoom. null while the geofences load.
 */
export function useMapStart(geofences: Geofence[] | undefined): { view: InitialView | undefined } | null {
  const [start, setStart] = useState<{ view: InitialView | undefined } | null>(null);
  useEffect(() => {
    if (start || !geofences) return;
    const stored = readStoredView(storage());
    const corners = geofenceCorners(geofences);
    setStart({
      view: stored
        ? { center: [stored.lat, stored.lng], zoom: stored.zoom }
        : corners
          ? { bounds: corners }
          : undefined,
    });
  }, [start, geofences]);
  return start;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Remembers the operator's view (centre and zoom) in this browser after every move. */
export function KeepView() {
  const map = useMapEvents({
    moveend: () => {
      const center = map.getCenter();
      storeView(storage(), { lat: center.lat, lng: center.lng, zoom: map.getZoom() });
    },
  });
  return null;
}

/** "Fit site": back to the box of every geofence (the configured start when there is none). */
export function FitSiteControl({ geofences, settings }: { geofences: Geofence[]; settings: ClientSettings }) {
  const map = useMap();
  const fit = () => {
    const corners = geofenceCorners(geofences);
    if (corners) map.fitBounds(corners, { padding: [24, 24], maxZoom: 18 });
    else map.setView([settings.mapCenter.lat, settings.mapCenter.lng], settings.mapZoom);
  };
  return (
    <MapControl position="topleft">
      <Button
        variant="secondary"
        size="sm"
        className="shadow"
        title="Fit the map to every geofence of the site"
        onClick={fit}
      >
        Fit site
      </Button>
    </MapControl>
  );
}
