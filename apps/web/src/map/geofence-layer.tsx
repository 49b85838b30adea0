// Existing geofences, in the colour of their alert level: Critical red, Warning amber, Informational blue (decision
// 041; docs/CLIENT-CONTRACT.md coloured by shape). Negative zones are solid, Positive ones dashed. A click selects one.
import { Circle, Polygon, Rectangle, Tooltip } from 'react-leaflet';
import L from 'leaflet';
import { geofenceColor, type Geofence } from '@prison/shared/geofence';

interface GeofenceLayerProps {
  geofences: Geofence[];
  selectedId: string | null;
  onSelect(id: string): void;
  /** True when a tracked marker is under the pointer: its popup wins over selecting the geofence beneath it. */
  isMarkerAt?(containerPoint: L.Point): boolean;
}

export function GeofenceLayer({ geofences, selectedId, onSelect, isMarkerAt }: GeofenceLayerProps) {
  return (
    <>
      {geofences.map((geofence) => {
        const selected = geofence.geofence_id === selectedId;
        const pathOptions: L.PathOptions = {
          color: geofenceColor(geofence.alert_type),
          weight: selected ? 5 : 3,
          dashArray: geofence.type === 'Negative' ? undefined : '6 4',
          fillOpacity: selected ? 0.3 : 0.15,
        };
        // Set once when the path is made (setStyle ignores it): lets tests find shapes without reading pixels. The
        // level is in the key, so a new level makes a new path with its class.
        const key = `${geofence.geofence_id}:${geofence.alert_type}`;
        const className = `geofence-shape geofence-${geofence.shape.toLowerCase()} geofence-level-${geofence.alert_type.toLowerCase()}`;
        const eventHandlers = {
          click: (event: L.LeafletMouseEvent) => {
            if (isMarkerAt?.(event.containerPoint)) return;
            L.DomEvent.stopPropagation(event);
            onSelect(geofence.geofence_id);
          },
        };
        const label = (
          <Tooltip sticky>
            {geofence.name} ({geofence.type}, {geofence.alert_type})
          </Tooltip>
        );
        if (
          geofence.shape === 'Circle' &&
          geofence.center_lat !== null &&
          geofence.center_lng !== null &&
          geofence.radius !== null
        ) {
          return (
            <Circle
              key={key}
              center={[geofence.center_lat, geofence.center_lng]}
              radius={geofence.radius}
              className={className}
              pathOptions={pathOptions}
              eventHandlers={eventHandlers}
            >
              {label}
            </Circle>
          );
        }
        if (!geofence.coordinates || geofence.coordinates.length < 3) return null;
        if (geofence.shape === 'Rectangle') {
          return (
            <Rectangle
              key={key}
              bounds={L.latLngBounds(geofence.coordinates)}
              className={className}
              pathOptions={pathOptions}
              eventHandlers={eventHandlers}
            >
              {label}
            </Rectangle>
          );
        }
        return (
          <Polygon
            key={key}
            positions={geofence.coordinates}
            className={className}
            pathOptions={pathOptions}
            eventHandlers={eventHandlers}
          >
            {label}
          </Polygon>
        );
      })}
    </>
  );
}
