// Mounts the canvas marker layer on the map for the life of the component and hands it to the caller.
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import type { TrackedMarkersLayer } from './tracked-markers-layer';

export function TrackedMarkers({ layer }: { layer: TrackedMarkersLayer }) {
  const map = useMap();
  useEffect(() => {
    layer.addTo(map);
    return () => {
      layer.removeFrom(map);
    };
  }, [map, layer]);
  return null;
}
