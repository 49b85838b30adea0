// Mounts the canvas marker layer on the map for the life of the component and hands it to the caller. `stale` greys
// every marker (the live connection is down, so no position shown is current).
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import type { TrackedMarkersLayer } from './tracked-markers-layer';

/** `stale`: the live feed is not live, the markers are greyed (decision 028). */
export function TrackedMarkers({ layer, stale = false }: { layer: TrackedMarkersLayer; stale?: boolean }) {
  const map = useMap();
  useEffect(() => {
    layer.addTo(map);
    return () => {
      layer.removeFrom(map);
    };
  }, [map, layer]);
  useEffect(() => layer.setStale(stale), [layer, stale]);
  return null;
}
