// A Leaflet control whose content is React: rendered through a portal into the control's box, so it sits among the
// map's own controls and is reached with Tab like any button.
import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useMap } from 'react-leaflet';
import L from 'leaflet';

export function MapControl({ position, children }: { position: L.ControlPosition; children: ReactNode }) {
  const map = useMap();
  const [container] = useState(() => {
    const box = L.DomUtil.create('div', 'leaflet-control');
    // A click or a wheel on the control is not a click or a zoom on the map.
    L.DomEvent.disableClickPropagation(box);
    L.DomEvent.disableScrollPropagation(box);
    return box;
  });

  useEffect(() => {
    const control = new L.Control({ position });
    control.onAdd = () => container;
    map.addControl(control);
    return () => {
      map.removeControl(control);
    };
  }, [map, container, position]);

  return createPortal(children, container);
}
