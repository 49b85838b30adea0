// What a link to the live map asks for. "Show on map" (the layout's Critical bar) opens /live-map?device=ID: the map
// centres on that tracker once it is known. An officer's SOS (decision 072), named by ?alert=ID, by ?device=ID of an
// officer with an open SOS, or by opening his marker, marks him and the nearest staff the alert named.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type L from 'leaflet';
import type { TrackedLocation } from '@prison/shared/realtime';
import type { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { useStaffInDanger } from './api/tracked-prisoners';
import type { TrackedPrisonerRow } from './components/tracked-prisoner-list';

/** Centres the map on a row's tracker and opens its popup when its marker is drawn. */
export function focusRow(map: L.Map | null, layer: TrackedMarkersLayer, row: TrackedPrisonerRow) {
  if (!map || !row.position) return;
  const position = layer.positionOf(row.trackingId) ?? row.position;
  map.setView(position, Math.max(map.getZoom(), 16));
  if (layer.has(row.trackingId)) layer.openMarkerPopup(row.trackingId);
}

interface LinkTargets {
  params: URLSearchParams;
  mapRef: RefObject<L.Map | null>;
  layer: TrackedMarkersLayer;
  rows: TrackedPrisonerRow[];
  live: ReadonlyMap<string, TrackedLocation>;
  /** Changes once the map exists (its start is known), so a link opened before that is followed then. */
  mapReady: unknown;
}

/** ?device=ID: centre on that tracker once, as soon as it is known. */
export function useFocusFromLink({ params, mapRef, layer, rows, live, mapReady }: LinkTargets) {
  const wanted = params.get('device');
  const focusedFor = useRef<string | null>(null);
  useEffect(() => {
    const map = mapRef.current;
    if (!wanted || focusedFor.current === wanted || !map) return;
    const row = rows.find((candidate) => candidate.trackingId === wanted);
    if (row?.position) {
      focusedFor.current = wanted;
      focusRow(map, layer, row);
      return;
    }
    // A tracker the prisoner list does not hold (a staff member's, decision 035): its marker, once it is drawn. With an
    // alert named (an officer's SOS from the Critical bar) the assistance view fits him and his nearest instead.
    if (params.has('alert')) return;
    const position = layer.positionOf(wanted);
    if (!position) return;
    focusedFor.current = wanted;
    map.setView(position, Math.max(map.getZoom(), 16));
    layer.openMarkerPopup(wanted);
  }, [wanted, params, rows, live, layer, mapRef, mapReady]);
}

/**
 * The officer's SOS the map marks, if any: from the link (fitted to him and his nearest) or from the marker whose
 * popup is open (not fitted). It goes once the alert is resolved (gone from the open list) or hidden.
 */
export function useStaffAssist(params: URLSearchParams, popupId: string | null) {
  const staffInDanger = useStaffInDanger();
  const [assist, setAssist] = useState<{ alertId: number; fit: boolean } | null>(null);
  const wanted = params.get('device');
  const wantedAlert = Number(params.get('alert')) || null;
  const assistFor = useRef<string | null>(null);
  useEffect(() => {
    const open = staffInDanger.data;
    const key = `${wanted ?? ''}|${wantedAlert ?? ''}`;
    if (!open || key === '|' || assistFor.current === key) return;
    assistFor.current = key;
    const found = open.find((alert) =>
      wantedAlert !== null ? alert.alert_id === wantedAlert : alert.device_id === wanted,
    );
    if (found) setAssist({ alertId: found.alert_id, fit: true });
  }, [wanted, wantedAlert, staffInDanger.data]);
  const openSos = useRef(staffInDanger.data);
  openSos.current = staffInDanger.data;
  useEffect(() => {
    const found = popupId === null ? undefined : openSos.current?.find((alert) => alert.device_id === popupId);
    if (found) setAssist({ alertId: found.alert_id, fit: false });
  }, [popupId]);
  const alert = assist ? staffInDanger.data?.find((open) => open.alert_id === assist.alertId) : undefined;
  return { alert, fit: assist?.fit ?? false, hide: () => setAssist(null) };
}
