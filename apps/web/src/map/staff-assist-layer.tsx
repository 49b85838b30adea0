// An officer's SOS on the map (decision 072): a red ring on the officer in need, a ring on each of the
// nearest other staff named by the alert, a dashed line from him to each, and a label with the name and the distance
// at the alarm. The rings follow the markers as they glide (read from the marker layer every animation frame), so
// they sit below the markers' canvas (the overlay pane) and take no clicks: the markers keep their popups.
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';

export interface StaffAssistPerson {
  /** The tracker's id (the marker's id). */
  id: string;
  name: string;
  /** Distance to the officer when the alarm was raised, in whole metres. */
  metres: number;
}

export const STAFF_ASSIST_COLORS = { officer: '#b91c1c', nearest: '#1d4ed8' } as const;

/** "1. Cid Cole · 25 m": the label beside each of the nearest, nearest first. */
export const nearestStaffLabel = (person: StaffAssistPerson, rank: number) => `${rank}. ${person.name} · ${person.metres} m`;

interface Drawn {
  id: string;
  ring: L.CircleMarker;
  line: L.Polyline | null;
}

/**
 * Draws the officer and the nearest staff while mounted; `positionOf` answers where a marker is drawn now (null: not
 * on the map, then nothing is drawn for him).
 */
export function StaffAssistLayer({
  officer,
  nearest,
  positionOf,
}: {
  officer: { id: string; name: string };
  nearest: readonly StaffAssistPerson[];
  positionOf: (id: string) => L.LatLng | null;
}) {
  const map = useMap();
  const positionRef = useRef(positionOf);
  positionRef.current = positionOf;

  useEffect(() => {
    const group = L.layerGroup().addTo(map);
    const ring = (color: string, radius: number, className: string) =>
      L.circleMarker([0, 0], { radius, color, weight: 3, fill: false, interactive: false, className });
    const officerRing: Drawn = {
      id: officer.id,
      ring: ring(STAFF_ASSIST_COLORS.officer, 16, 'staff-assist-officer'),
      line: null,
    };
    officerRing.ring.bindTooltip(`${officer.name} needs assistance`, {
      permanent: true,
      direction: 'top',
      offset: [0, -14],
      className: 'staff-assist-label staff-assist-officer-label',
    });
    const others: Drawn[] = nearest.map((person, index) => {
      const drawn: Drawn = {
        id: person.id,
        ring: ring(STAFF_ASSIST_COLORS.nearest, 13, 'staff-assist-nearest'),
        line: L.polyline([], {
          color: STAFF_ASSIST_COLORS.nearest,
          weight: 2,
          dashArray: '6 4',
          interactive: false,
          className: 'staff-assist-line',
        }),
      };
      drawn.ring.bindTooltip(nearestStaffLabel(person, index + 1), {
        permanent: true,
        direction: 'right',
        offset: [12, 0],
        className: 'staff-assist-label staff-assist-nearest-label',
      });
      // The ring's element tells the tests (and a curious reader of the page) whose ring it is.
      drawn.ring.on('add', () => drawn.ring.getElement()?.setAttribute('data-tracking-id', person.id));
      return drawn;
    });
    officerRing.ring.on('add', () => officerRing.ring.getElement()?.setAttribute('data-tracking-id', officer.id));

    // Shown or hidden per frame as the markers come and go; moved only when a marker moved.
    const place = (drawn: Drawn, at: L.LatLng | null, from: L.LatLng | null) => {
      if (!at) {
        group.removeLayer(drawn.ring);
        if (drawn.line) group.removeLayer(drawn.line);
        return;
      }
      if (!drawn.ring.getLatLng().equals(at)) drawn.ring.setLatLng(at);
      if (!group.hasLayer(drawn.ring)) group.addLayer(drawn.ring);
      if (!drawn.line) return;
      if (!from) {
        group.removeLayer(drawn.line);
        return;
      }
      const [a, b] = drawn.line.getLatLngs() as L.LatLng[];
      if (!a || !b || !a.equals(from) || !b.equals(at)) drawn.line.setLatLngs([from, at]);
      if (!group.hasLayer(drawn.line)) group.addLayer(drawn.line);
    };
    let frame = 0;
    const draw = () => {
      const from = positionRef.current(officer.id);
      place(officerRing, from, null);
      for (const drawn of others) place(drawn, positionRef.current(drawn.id), from);
      frame = requestAnimationFrame(draw);
    };
    draw();
    return () => {
      cancelAnimationFrame(frame);
      group.remove();
    };
  }, [map, officer.id, officer.name, nearest]);

  return null;
}
