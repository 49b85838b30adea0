// A new geofence: the drawing toolbar, the "Enter coordinates" button beside it (the keyboard's way to make a shape),
// and the "Enter Geofence Details" modal that saves the shape just drawn or typed in.
import { useEffect, useState } from 'react';
import { useMap } from 'react-leaflet';
import { DEFAULT_DWELL_SECONDS, GEOFENCE_LEVEL_COLORS } from '@prison/shared/geofence';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { DrawControl, type DrawnShape } from '../../../map/draw-control';
import { geometryOfDrawnLayer, layerOfGeometry, layerTypeOf, type DrawnGeometry } from '../../../map/drawn-shape';
import { MapControl } from '../../../map/map-control';
import { useCreateGeofence } from '../api/geofences';
import { CoordinatesModal } from './coordinates-modal';
import { GeofenceDetailsModal, newGeofenceId, type GeofenceDetails } from './geofence-details-modal';

export function NewGeofence() {
  const map = useMap();
  const [drawn, setDrawn] = useState<{ shape: DrawnShape; key: number } | null>(null);
  const [typing, setTyping] = useState<{ lat: number; lng: number } | null>(null);
  const [typed, setTyped] = useState<DrawnGeometry | null>(null);
  const create = useCreateGeofence();
  const resetCreate = create.reset;
  const { notify } = useToast();

  // A typed shape goes on once the coordinates dialog has closed and, a tick later, handed focus back to its
  // button (Radix does so in a timeout); opened any sooner, the details modal would lose its focus to that button.
  useEffect(() => {
    if (!typed) return;
    const timer = setTimeout(() => {
      setTyped(null);
      // Put on the map as the draw tool would and read back the same way, so the result is identical to drawing.
      const layer = layerOfGeometry(typed, { color: GEOFENCE_LEVEL_COLORS.Informational }).addTo(map);
      const bounds = layer.getBounds();
      if (!map.getBounds().contains(bounds)) map.fitBounds(bounds);
      resetCreate();
      const geometry = geometryOfDrawnLayer(layerTypeOf(typed), layer) ?? typed;
      setDrawn({ shape: { geometry, discard: () => layer.remove() }, key: Date.now() });
    });
    return () => clearTimeout(timer);
  }, [typed, map, resetCreate]);

  const cancel = () => {
    drawn?.shape.discard();
    setDrawn(null);
    create.reset();
  };

  const save = (details: GeofenceDetails) => {
    if (!drawn) return;
    create.mutate(
      { ...drawn.shape.geometry, ...details, geofence_id: newGeofenceId(), dwell_seconds: DEFAULT_DWELL_SECONDS, buffer_meters: 0 },
      {
        // The saved geofence is drawn from the server's list, refetched before this runs.
        onSuccess: () => {
          drawn.shape.discard();
          setDrawn(null);
          notify('Geofence saved.');
        },
        onError: (error) => console.error('geofence save failed', error),
      },
    );
  };

  return (
    <>
      <DrawControl
        onDrawn={(shape) => {
          create.reset();
          setDrawn({ shape, key: Date.now() });
        }}
      />
      <MapControl position="topright">
        <Button
          variant="secondary"
          size="sm"
          className="shadow"
          aria-haspopup="dialog"
          onClick={() => {
            const center = map.getCenter().wrap();
            setTyping({ lat: center.lat, lng: center.lng });
          }}
        >
          Enter coordinates
        </Button>
      </MapControl>
      {typing && (
        <CoordinatesModal
          center={typing}
          onCancel={() => setTyping(null)}
          onContinue={(geometry) => {
            setTyping(null);
            setTyped(geometry);
          }}
        />
      )}
      {drawn && (
        <GeofenceDetailsModal
          key={drawn.key}
          open
          saving={create.isPending}
          error={create.error ? errorMessage(create.error, 'Failed to save the geofence.') : null}
          onCancel={cancel}
          onSave={save}
        />
      )}
    </>
  );
}
