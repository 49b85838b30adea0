// /live-map (SPEC.md section 2): geofences drawn (or typed in) and edited on a Leaflet map, tracked prisoners moving
// live on a canvas layer, and a side panel listing them (a drawer on phones). Decision 026: the map opens on the
// operator's last view or fitted to the geofences, markers are coloured by the worst open alert (grey offline), and
// a marker's popup carries the prisoner's live picture with Acknowledge.
import { useMay } from '../../lib/use-may';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type L from 'leaflet';
import { useMap, useMapEvents } from 'react-leaflet';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import {
  GEOFENCE_LEVEL_COLORS,
  geofenceColor,
  type AlertType,
  type ClientSettings,
  type Device,
  type Escort,
  type Geofence,
  type LiveMapPrisonerAlerts,
  type TrackedLocation,
} from '@prison/shared';
import { Button } from '../../components/ui/button';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useSocket } from '../../lib/realtime';
import { isStale, useFeedHealth } from '../../lib/feed-health';
import { DataAsOf } from '../../components/ui/feed-health';
import { useToast } from '../../lib/toast';
import { MapView, type InitialView } from '../../map/map-view';
import { geofenceCorners, readStoredView, storeView } from '../../map/map-start';
import { markerLevel } from '../../map/marker-style';
import { useNow } from '../../lib/use-now';
import { DrawControl, type DrawnShape } from '../../map/draw-control';
import {
  geometryOfDrawnLayer,
  geometryOfGeofence,
  layerOfGeometry,
  layerTypeOf,
  type DrawnGeometry,
} from '../../map/drawn-shape';
import { EditableShape } from '../../map/editable-shape';
import { GeofenceLayer } from '../../map/geofence-layer';
import { BLOCK_AREA_COLOR, BlockAreaLayer } from '../../map/block-area-layer';
import { useBlockAreas } from './api/block-areas';
import { BlockAreaEditor, type AreaDraft } from './components/block-area-editor';
import { MapControl } from '../../map/map-control';
import { TrackedMarkers } from '../../map/tracked-markers';
import { ReaderLayer } from '../../map/reader-layer';
import { useReaders } from '../readers/api';
import { TrackedMarkersLayer, type MarkerPopupSlot } from '../../map/tracked-markers-layer';
import { useClientSettings } from './api/settings';
import { useCreateGeofence, useGeofences } from './api/geofences';
import {
  DEVICES_QUERY_KEY,
  useActiveEscorts,
  useAssignedDevices,
  useLiveMapAlerts,
  useStaffInDanger,
} from './api/tracked-prisoners';
import { LivePositionFeed } from './live-position-feed';
import { CoordinatesModal } from './components/coordinates-modal';
import { GeofenceDetailsModal, newGeofenceId, type GeofenceDetails } from './components/geofence-details-modal';
import { GeofenceEditor } from './components/geofence-editor';
import { GeofenceList } from './components/geofence-list';
import { PendingApprovals } from './components/pending-approvals';
import { MarkerPopupDetails } from './components/marker-popup-details';
import { StaffInDanger, officerNameOf } from './components/staff-in-danger';
import { TrackedPrisonerList, type TrackedPrisonerRow } from './components/tracked-prisoner-list';

/** The side panel re-renders at most this often (and only when devices appear or leave); markers move every frame. */
const PANEL_REFRESH_MS = 500;
/** Ages of last fixes (list, popup, grey markers) are re-checked this often. */
const AGE_TICK_MS = 5000;
const EMPTY_ALERTS: ReadonlyMap<number, LiveMapPrisonerAlerts> = new Map();
/**
 * Test hooks exist in development and in builds made for tests and benchmarks (`VITE_TEST_HOOKS=1`); a production
 * build compiles them out, so nothing outside the app can reach its internals.
 */
const TEST_HOOKS = import.meta.env.DEV || import.meta.env.VITE_TEST_HOOKS === '1';

declare global {
  interface Window {
    /** Test and benchmark hook (development and test builds only). */
    __liveMap?: { feed: LivePositionFeed; layer: TrackedMarkersLayer; map: L.Map | null };
  }
}

export function LiveMapPage() {
  const settings = useClientSettings();
  if (settings.isPending) return <Loading text="Loading map..." />;
  if (settings.isError)
    return <ErrorText>{errorMessage(settings.error, 'Failed to load the map settings.')}</ErrorText>;
  return <LiveMap settings={settings.data} />;
}

function LiveMap({ settings }: { settings: ClientSettings }) {
  // Drawing and editing geofences only for a role that may change them (decision 053).
  const mayEditGeofences = useMay('geofences.write');
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const [layer] = useState(() => new TrackedMarkersLayer());
  const [live, setLive] = useState<ReadonlyMap<string, TrackedLocation>>(new Map());
  const [feed] = useState(() => {
    let panelTimer: ReturnType<typeof setTimeout> | null = null;
    const created: LivePositionFeed = new LivePositionFeed(layer, (membershipChanged) => {
      // Read by tests and the benchmark instead of pixels.
      if (containerRef.current) containerRef.current.dataset.markerCount = String(layer.size);
      // The list shows who is online, not where: moves alone do not re-render it.
      if (!membershipChanged) return;
      panelTimer ??= setTimeout(() => {
        panelTimer = null;
        setLive(new Map(created.current));
      }, PANEL_REFRESH_MS);
    });
    created.offlineSeconds = settings.deviceOfflineSeconds;
    return created;
  });
  useEffect(() => () => feed.dispose(), [feed]);

  useLiveFeed(feed);
  // Not live (decision 028): greyed markers, and the map and the counts say how old they are.
  const { state: feedState, dataAsOf } = useFeedHealth();
  const stale = isStale(feedState);

  // Ages tick: the list and the popup say "12 s ago", and a fix older than the offline threshold turns grey.
  const now = useNow(AGE_TICK_MS);
  // Bumped only when a tracker turns offline or back: the list is re-ranked then, not on every tick.
  const [freshness, setFreshness] = useState(0);
  useEffect(() => {
    if (feed.refreshAges(now)) setFreshness((version) => version + 1);
  }, [feed, now]);
  const lastFixOf = (row: TrackedPrisonerRow) => feed.current.get(row.trackingId)?.at ?? row.lastFixAt;

  const liveAlerts = useLiveMapAlerts();
  const alertsByPrisoner = liveAlerts.data ?? EMPTY_ALERTS;
  const worst = useMemo(() => worstLevels(alertsByPrisoner), [alertsByPrisoner]);
  useEffect(() => feed.setAlertLevels(worst), [feed, worst]);

  useEffect(() => {
    if (!TEST_HOOKS) return;
    window.__liveMap = {
      feed,
      layer,
      get map() {
        return mapRef.current;
      },
    };
    return () => {
      delete window.__liveMap;
    };
  }, [feed, layer]);

  const geofences = useGeofences();
  // Indoor readers as small dots, grey when silent (decision 067).
  const readers = useReaders();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = geofences.data?.find((geofence) => geofence.geofence_id === selectedId) ?? null;
  // The selected geofence's shape while it is edited on the map; selecting another geofence leaves the edit.
  const [shapeDraft, setShapeDraft] = useState<{ id: string; geometry: DrawnGeometry } | null>(null);
  const editing = shapeDraft && shapeDraft.id === selected?.geofence_id ? shapeDraft : null;
  const select = (id: string | null) => {
    if (id !== selectedId) setShapeDraft(null);
    setSelectedId(id);
  };
  const selectedGeometry = selected ? geometryOfGeofence(selected) : null;
  // The edited geofence is drawn by its editable layer alone.
  const shown = useMemo(
    () => (geofences.data ?? []).filter((geofence) => geofence.geofence_id !== editing?.id),
    [geofences.data, editing?.id],
  );
  const mapStart = useMapStart(geofences.isPending ? undefined : (geofences.data ?? []));
  // Block areas (issue 24): drawn with their names; the one being edited only by its editable layer.
  const blockAreas = useBlockAreas();
  const [areaDraft, setAreaDraft] = useState<AreaDraft | null>(null);
  const shownAreas = useMemo(
    () => (blockAreas.data ?? []).filter((area) => area.block !== areaDraft?.block),
    [blockAreas.data, areaDraft?.block],
  );

  const devices = useAssignedDevices();
  // Every assigned tracker's last known position: drawn grey where it was last seen while it is not live.
  useEffect(() => feed.setLastKnown(lastKnownPlaces(devices.data ?? [])), [feed, devices.data]);
  const rows = useMemo(
    () => trackedRows(devices.data ?? [], live, feed, alertsByPrisoner),
    // freshness: who is online changed with time alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [devices.data, live, feed, alertsByPrisoner, freshness],
  );
  const rowsById = useMemo(() => new Map(rows.map((row) => [row.trackingId, row])), [rows]);

  // Each escort in force: a line between the prisoner's and the officer's markers (decision 035).
  const escorts = useActiveEscorts();
  useEffect(() => layer.setLinks(escortLinks(escorts.data ?? [], live)), [layer, escorts.data, live]);

  // Phones: the list is a drawer over the map, closed once a prisoner is picked.
  const [drawerOpen, setDrawerOpen] = useState(false);
  const focus = (row: TrackedPrisonerRow) => {
    setDrawerOpen(false);
    focusRow(mapRef.current, layer, row);
  };

  // The popup's live part is React, rendered into the slot the layer gives when a popup opens.
  const [popupSlot, setPopupSlot] = useState<MarkerPopupSlot | null>(null);
  useEffect(() => {
    layer.onPopupChange = setPopupSlot;
    return () => {
      layer.onPopupChange = null;
    };
  }, [layer]);
  const popupRow = popupSlot ? rowsById.get(popupSlot.id) : undefined;
  useLayoutEffect(() => layer.updatePopup());

  // "Show on map" (the layout's Critical bar) opens /live-map?device=ID: centre on that tracker once, when known.
  const [params] = useSearchParams();
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
    // alert named (an officer's SOS from the Critical bar) the assistance view below fits him and his nearest instead.
    if (params.has('alert')) return;
    const position = layer.positionOf(wanted);
    if (!position) return;
    focusedFor.current = wanted;
    map.setView(position, Math.max(map.getZoom(), 16));
    layer.openMarkerPopup(wanted);
  }, [wanted, params, rows, live, layer, mapStart]);

  // An officer's SOS (decision 072): opened from a link (?alert=ID, or ?device=ID of an officer with an open SOS) or by
  // opening the officer's marker, the map marks him and the nearest staff the alert named.
  const staffInDanger = useStaffInDanger();
  const [assist, setAssist] = useState<{ alertId: number; fit: boolean } | null>(null);
  const wantedAlert = Number(params.get('alert')) || null;
  const assistFor = useRef<string | null>(null);
  useEffect(() => {
    const open = staffInDanger.data;
    const key = `${wanted ?? ''}|${wantedAlert ?? ''}`;
    if (!open || key === '|' || assistFor.current === key) return;
    assistFor.current = key;
    const found = open.find((alert) => (wantedAlert !== null ? alert.alert_id === wantedAlert : alert.device_id === wanted));
    if (found) setAssist({ alertId: found.alert_id, fit: true });
  }, [wanted, wantedAlert, staffInDanger.data]);
  const openSos = useRef(staffInDanger.data);
  openSos.current = staffInDanger.data;
  const popupId = popupSlot?.id ?? null;
  useEffect(() => {
    const found = popupId === null ? undefined : openSos.current?.find((alert) => alert.device_id === popupId);
    if (found) setAssist({ alertId: found.alert_id, fit: false });
  }, [popupId]);
  // Resolved (gone from the open list): the marks go with it.
  const assistAlert = assist ? staffInDanger.data?.find((alert) => alert.alert_id === assist.alertId) : undefined;

  return (
    // The layout gives the map what the bars leave of the window (decision 044): it fills that, never more.
    <div className="relative flex min-h-0 flex-1 md:flex-row" data-testid="live-map-page">
      <aside
        id="live-map-panel"
        className={clsx(
          'flex-col overflow-y-auto border-slate-200 bg-white',
          // Phones: a drawer over the map; from md on: a side panel beside it.
          'absolute inset-y-0 left-0 z-[1100] w-[88%] max-w-sm shadow-xl',
          'md:static md:z-auto md:flex md:w-80 md:max-w-none md:border-r md:shadow-none',
          drawerOpen ? 'flex' : 'hidden',
        )}
        aria-label="Live map panel"
        data-testid="live-map-panel"
      >
        <div className="flex justify-end border-b border-slate-200 p-2 md:hidden">
          <Button variant="secondary" size="sm" onClick={() => setDrawerOpen(false)}>
            Close list
          </Button>
        </div>
        <PendingApprovals />
        {mayEditGeofences && (
          <BlockAreaEditor
            draft={areaDraft}
            onStart={setAreaDraft}
            onEnd={() => setAreaDraft(null)}
            mapCentre={() => {
              const centre = mapRef.current?.getCenter();
              return centre ? { lat: centre.lat, lng: centre.lng } : null;
            }}
          />
        )}
        {selected && mayEditGeofences && (
          <GeofenceEditor
            key={selected.geofence_id}
            geofence={selected}
            shapeDraft={editing?.geometry ?? null}
            onEditShape={
              selectedGeometry && (() => setShapeDraft({ id: selected.geofence_id, geometry: selectedGeometry }))
            }
            onEndShapeEdit={() => setShapeDraft(null)}
            onClose={() => select(null)}
          />
        )}
        {geofences.isPending ? (
          <Loading text="Loading geofences..." />
        ) : geofences.isError ? (
          <ErrorText>{errorMessage(geofences.error, 'Failed to load geofences.')}</ErrorText>
        ) : (
          <GeofenceList geofences={geofences.data} selectedId={selectedId} onSelect={select} />
        )}
        <TrackedPrisonerList
          rows={rows}
          now={now}
          lastFixOf={lastFixOf}
          onFocus={focus}
          stale={stale}
          dataAsOf={dataAsOf}
        />
      </aside>
      <div ref={containerRef} className="relative min-h-0 flex-1" data-testid="live-map" data-marker-count="0">
        {!mapStart ? (
          <Loading text="Loading map..." />
        ) : (
          <MapView settings={settings} className="h-full w-full" mapRef={mapRef} initialView={mapStart.view}>
            <BlockAreaLayer areas={shownAreas} />
            {areaDraft && (
              <EditableShape
                key={`area:${areaDraft.block}`}
                geometry={{ shape: 'Polygon', coordinates: areaDraft.points }}
                color={BLOCK_AREA_COLOR}
                onChange={(geometry) =>
                  geometry.shape !== 'Circle' && setAreaDraft({ block: areaDraft.block, points: geometry.coordinates })
                }
              />
            )}
            <GeofenceLayer
              geofences={shown}
              selectedId={selectedId}
              onSelect={select}
              isMarkerAt={(point) => layer.markerAt(point) !== null}
            />
            {editing && (
              <EditableShape
                key={editing.id}
                geometry={editing.geometry}
                color={selected ? geofenceColor(selected.alert_type) : undefined}
                onChange={(geometry) => setShapeDraft({ id: editing.id, geometry })}
              />
            )}
            <ReaderLayer readers={readers.data ?? []} />
            <TrackedMarkers layer={layer} stale={stale} />
            {assistAlert && assist && (
              <StaffInDanger
                key={assistAlert.alert_id}
                alert={assistAlert}
                officerName={officerNameOf(assistAlert, live.get(assistAlert.device_id)?.name)}
                positionOf={(id) => layer.positionOf(id)}
                fit={assist.fit}
                onHide={() => setAssist(null)}
              />
            )}
            <FitSiteControl geofences={geofences.data ?? []} settings={settings} />
            <KeepView />
            {mayEditGeofences && <NewGeofence />}
          </MapView>
        )}
        <Button
          variant="secondary"
          size="sm"
          className="absolute left-1/2 top-2 z-[1000] -translate-x-1/2 shadow md:hidden"
          aria-expanded={drawerOpen}
          aria-controls="live-map-panel"
          onClick={() => setDrawerOpen((open) => !open)}
        >
          {drawerOpen ? 'Close list' : `Prisoner list (${rows.length})`}
        </Button>
        {stale && (
          <p
            className="pointer-events-none absolute top-12 left-1/2 z-[1000] max-w-[calc(100%-7rem)] -translate-x-1/2 rounded bg-amber-100 px-3 py-1 text-center text-sm font-medium text-slate-950 shadow md:top-2"
            data-testid="live-map-stale"
          >
            Not live: <DataAsOf time={dataAsOf} />
          </p>
        )}
      </div>
      {popupSlot &&
        popupRow &&
        createPortal(
          <MarkerPopupDetails
            row={popupRow}
            lastFixAt={lastFixOf(popupRow)}
            alerts={popupRow.prisonerId === null ? undefined : alertsByPrisoner.get(popupRow.prisonerId)}
            now={now}
            stale={stale}
          />,
          popupSlot.extra,
        )}
    </div>
  );
}

/**
 * Where the map opens, fixed once the geofences are known: the operator's last view in this browser, else the box of
 * every geofence, else (view undefined) the configured start point and zoom. null while the geofences load.
 */
function useMapStart(geofences: Geofence[] | undefined): { view: InitialView | undefined } | null {
  const [start, setStart] = useState<{ view: InitialView | undefined } | null>(null);
  useEffect(() => {
    if (start || !geofences) return;
    const stored = readStoredView(storage());
    const corners = geofenceCorners(geofences);
    setStart({
      view: stored ? { center: [stored.lat, stored.lng], zoom: stored.zoom } : corners ? { bounds: corners } : undefined,
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
function KeepView() {
  const map = useMapEvents({
    moveend: () => {
      const center = map.getCenter();
      storeView(storage(), { lat: center.lat, lng: center.lng, zoom: map.getZoom() });
    },
  });
  return null;
}

/** "Fit site": back to the box of every geofence (the configured start when there is none). */
function FitSiteControl({ geofences, settings }: { geofences: Geofence[]; settings: ClientSettings }) {
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

/**
 * The drawing toolbar, the "Enter coordinates" button beside it (the keyboard's way to make a shape), and the
 * "Enter Geofence Details" modal for the shape just drawn or typed in.
 */
function NewGeofence() {
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
      { ...drawn.shape.geometry, ...details, geofence_id: newGeofenceId(), dwell_seconds: 0, buffer_meters: 0 },
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

/** Subscribes the feed to the socket; after every (re)connect it asks for a fresh snapshot (DECISIONS.md item 12). */
function useLiveFeed(feed: LivePositionFeed) {
  const socket = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    // A tracker that left (offline, removed, unassigned): the device list says which, and where it was last seen.
    let refetchTimer: ReturnType<typeof setTimeout> | null = null;
    const refetchDevices = () => {
      refetchTimer ??= setTimeout(() => {
        refetchTimer = null;
        void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
      }, 300);
    };
    const requestSnapshot = () => socket.emit('requestSnapshot');
    const onSnapshot = (snapshot: Parameters<LivePositionFeed['snapshot']>[0]) => feed.snapshot(snapshot);
    const onChanges = (changes: Parameters<LivePositionFeed['changes']>[0]) => {
      feed.changes(changes);
      if (changes.gone.length) refetchDevices();
    };
    const onDisconnected = (trackingId: string) => {
      feed.disconnected(trackingId);
      refetchDevices();
    };
    socket.on('locationUpdate', onSnapshot);
    socket.on('locationChanges', onChanges);
    socket.on('userDisconnected', onDisconnected);
    socket.on('connect', requestSnapshot);
    // The socket connected before this page opened, so its first snapshot went by unseen.
    if (socket.connected) requestSnapshot();
    return () => {
      socket.off('locationUpdate', onSnapshot);
      socket.off('locationChanges', onChanges);
      socket.off('userDisconnected', onDisconnected);
      socket.off('connect', requestSnapshot);
      if (refetchTimer) clearTimeout(refetchTimer);
    };
  }, [socket, feed, queryClient]);
}

function focusRow(map: L.Map | null, layer: TrackedMarkersLayer, row: TrackedPrisonerRow) {
  if (!map || !row.position) return;
  const position = layer.positionOf(row.trackingId) ?? row.position;
  map.setView(position, Math.max(map.getZoom(), 16));
  if (layer.has(row.trackingId)) layer.openMarkerPopup(row.trackingId);
}

function worstLevels(alerts: ReadonlyMap<number, LiveMapPrisonerAlerts>): ReadonlyMap<number, AlertType> {
  const worst = new Map<number, AlertType>();
  for (const [prisonerId, entry] of alerts) if (entry.worst_level) worst.set(prisonerId, entry.worst_level);
  return worst;
}

/** The device list's trackers with a last position, as the feed's last known places. */
function lastKnownPlaces(devices: Device[]): Map<string, TrackedLocation> {
  const places = new Map<string, TrackedLocation>();
  for (const device of devices) {
    if (device.latitude === null || device.longitude === null) continue;
    places.set(device.id, {
      id: device.id,
      trackingId: device.id,
      prisonerId: device.prisoner_id,
      name: device.prisoner_name ?? device.name,
      cellId: device.prisoner_cell_id ?? null,
      latitude: device.latitude,
      longitude: device.longitude,
      ...(device.last_seen_at ? { at: device.last_seen_at } : {}),
    });
  }
  return places;
}

function trackedRows(
  devices: Device[],
  live: ReadonlyMap<string, TrackedLocation>,
  feed: LivePositionFeed,
  alerts: ReadonlyMap<number, LiveMapPrisonerAlerts>,
): TrackedPrisonerRow[] {
  const rows = new Map<string, TrackedPrisonerRow>();
  const row = (
    trackingId: string,
    name: string,
    prisonerId: number | null,
    cellId: string | null,
    device: Device | null,
  ): TrackedPrisonerRow => {
    // The feed's own copy: `live` is a snapshot for membership, the feed has the newest fix.
    const position = feed.current.get(trackingId);
    const online = feed.isOnline(trackingId);
    const entry = prisonerId === null ? undefined : alerts.get(prisonerId);
    const alertLevel = entry?.worst_level ?? null;
    const lastKnown = feed.locationOf(trackingId);
    return {
      trackingId,
      name,
      prisonerId,
      cellId,
      online,
      violationLevel: entry?.violation_level ?? null,
      alertLevel,
      level: markerLevel(online, alertLevel),
      position: lastKnown
        ? [lastKnown.latitude, lastKnown.longitude]
        : device && device.latitude !== null && device.longitude !== null
          ? [device.latitude, device.longitude]
          : null,
      lastFixAt: position?.at ?? lastKnown?.at ?? device?.last_seen_at ?? null,
      battery: device?.last_battery ?? null,
    };
  };
  for (const device of devices) {
    const position = live.get(device.id);
    rows.set(
      device.id,
      row(
        device.id,
        device.prisoner_name ?? position?.name ?? device.name,
        device.prisoner_id,
        position?.cellId ?? device.prisoner_cell_id ?? null,
        device,
      ),
    );
  }
  // Live devices the device list does not know yet (it refreshes less often); staff are not prisoners (decision 035).
  for (const [trackingId, position] of live) {
    if (rows.has(trackingId) || position.staffId !== undefined) continue;
    rows.set(trackingId, row(trackingId, position.name, position.prisonerId, position.cellId ?? null, null));
  }
  return [...rows.values()];
}

/** Pairs of tracking ids (the prisoner's, the officer's) of the escorts whose two trackers are on the map. */
function escortLinks(escorts: Escort[], live: ReadonlyMap<string, TrackedLocation>): [string, string][] {
  if (escorts.length === 0) return [];
  const byPrisoner = new Map<number, string>();
  const byStaff = new Map<number, string>();
  for (const [id, location] of live) {
    if (location.staffId !== undefined) byStaff.set(location.staffId, id);
    else if (location.prisonerId !== null) byPrisoner.set(location.prisonerId, id);
  }
  const links: [string, string][] = [];
  for (const escort of escorts) {
    const prisoner = byPrisoner.get(escort.prisoner.prisoner_id);
    const officer = byStaff.get(escort.staff.staff_id);
    if (prisoner && officer) links.push([prisoner, officer]);
  }
  return links;
}
