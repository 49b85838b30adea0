// The answer on the map: the subject's track (or the place and its radius) and each person near at the closest
// approach. A click on the map picks a place as the subject.
import { useEffect } from 'react';
import L from 'leaflet';
import { Circle, CircleMarker, Polyline, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import type { NearResponse } from '@prison/shared/investigations';
import type { ClientSettings } from '@prison/shared/settings';
import { MapView } from '../../map/map-view';
import type { Subject } from './near-params';
import { personOf } from './near-table';

function FrameAnswer({ points }: { points: [number, number][] }) {
  const map = useMap();
  useEffect(() => {
    if (points.length === 0) return;
    map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 19, animate: false });
  }, [map, points]);
  return null;
}

function PlacePicker({ onPick }: { onPick(lat: number, lng: number): void }) {
  useMapEvents({ click: (event) => onPick(Number(event.latlng.lat.toFixed(7)), Number(event.latlng.lng.toFixed(7))) });
  return null;
}

export function NearMap({
  settings,
  subject,
  radiusM,
  answer,
  onPickPlace,
}: {
  settings: ClientSettings;
  subject: Subject | null;
  radiusM: number;
  answer: NearResponse | undefined;
  onPickPlace(lat: number, lng: number): void;
}) {
  const track = (answer?.subject_track ?? []).map((p) => [p.lat, p.lng] as [number, number]);
  const near = (answer?.data ?? []).map((p) => [p.closest.latitude, p.closest.longitude] as [number, number]);
  const place = subject?.kind === 'place' ? ([subject.lat, subject.lng] as [number, number]) : null;
  const frame = [...track, ...near, ...(place ? [place] : [])];
  return (
    <MapView settings={settings} className="h-[45vh] min-h-[300px] w-full rounded-lg border border-slate-200 print:hidden">
      <PlacePicker onPick={onPickPlace} />
      <FrameAnswer points={frame} />
      {track.length > 0 && <Polyline positions={track} pathOptions={{ color: '#1e3a8a', weight: 3 }} />}
      {place && <Circle center={place} radius={radiusM} pathOptions={{ color: '#1e3a8a', weight: 2 }} />}
      {(answer?.data ?? []).map((p) => (
        <CircleMarker key={personOf(p)} center={[p.closest.latitude, p.closest.longitude]} radius={7} pathOptions={{ color: '#ffffff', weight: 2, fillColor: '#b91c1c', fillOpacity: 1 }}>
          <Tooltip>
            {p.name}
            {p.prison_number ? ` (${p.prison_number})` : ''}: {p.min_distance_m.toFixed(1)} m
          </Tooltip>
        </CircleMarker>
      ))}
    </MapView>
  );
}
