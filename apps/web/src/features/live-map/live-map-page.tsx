// /live-map (SPEC.md section 2): geofences drawn (or typed in) and edited on a Leaflet map, tracked prisoners moving
// live on a canvas layer, and a side panel listing them.
import { useEffect, useMemo, useRef, useState } from 'react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import { useSearchParams } from 'react-router';
import { GEOFENCE_COLORS, type ClientSettings, type TrackedLocation } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useSocket } from '../../lib/realtime';
import { isStale, useFeedHealth } from '../../lib/feed-health';
import { DataAsOf } from '../../components/ui/feed-health';
import { useToast } from '../../lib/toast';
import { MapView } from '../../map/map-view';
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
import { MapControl } from '../../map/map-control';
import { TrackedMarkers } from '../../map/tracked-markers';
import { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { useClientSettings } from './api/settings';
import { useCreateGeofence, useGeofences } from './api/geofences';
import { useAssignedDevices, useOpenViolations } from './api/tracked-prisoners';
import { LivePositionFeed } from './live-position-feed';
import { CoordinatesModal } from './components/coordinates-modal';
import { GeofenceDetailsModal, newGeofenceId, type GeofenceDetails } from './components/geofence-details-modal';
import { GeofenceEditor } from './components/geofence-editor';
import { GeofenceList } from './components/geofence-list';
import { TrackedPrisonerList, type TrackedPrisonerRow } from './components/tracked-prisoner-list';

/** The side panel re-renders at most this often (and only when devices appear or leave); markers move every frame. */
const PANEL_REFRESH_MS = 500;
const EMPTY_VIOLATIONS: ReadonlySet<number> = new Set();
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
    return created;
  });
  useEffect(() => () => feed.dispose(), [feed]);

  useLiveFeed(feed);
  // Not live (decision 028): greyed markers, and the map and the counts say how old they are.
  const { state: feedState, dataAsOf } = useFeedHealth();
  const stale = isStale(feedState);

  const violations = useOpenViolations();
  const violationIds = violations.data ?? EMPTY_VIOLATIONS;
  useEffect(() => feed.setViolations(violationIds), [feed, violationIds]);

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

  const devices = useAssignedDevices();
  const rows = useMemo(() => trackedRows(devices.data ?? [], live, violationIds), [devices.data, live, violationIds]);

  const focus = (row: TrackedPrisonerRow) => focusRow(mapRef.current, layer, row);

  // "Show on map" (the layout's Critical bar) opens /live-map?device=ID: centre on that prisoner once, when known.
  const [params] = useSearchParams();
  const wanted = params.get('device');
  const focusedFor = useRef<string | null>(null);
  useEffect(() => {
    const row = rows.find((candidate) => candidate.trackingId === wanted);
    if (!wanted || focusedFor.current === wanted || !row || !mapRef.current) return;
    focusedFor.current = wanted;
    focusRow(mapRef.current, layer, row);
  }, [wanted, rows, layer]);

  return (
    <div className="flex h-[calc(100vh-3.5rem)] min-h-[32rem] flex-col-reverse md:flex-row">
      <aside
        className="flex max-h-[40vh] w-full flex-col overflow-y-auto border-slate-200 bg-white md:max-h-none md:w-80 md:border-r"
        aria-label="Live map panel"
      >
        {selected && (
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
        <TrackedPrisonerList rows={rows} onFocus={focus} stale={stale} dataAsOf={dataAsOf} />
      </aside>
      <div ref={containerRef} className="relative min-h-0 flex-1" data-testid="live-map" data-marker-count="0">
        <MapView settings={settings} className="h-full w-full" mapRef={mapRef}>
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
              onChange={(geometry) => setShapeDraft({ id: editing.id, geometry })}
            />
          )}
          <TrackedMarkers layer={layer} stale={stale} />
          <NewGeofence />
        </MapView>
        {stale && (
          <p
            className="pointer-events-none absolute top-2 left-1/2 z-[1000] max-w-[calc(100%-7rem)] -translate-x-1/2 rounded bg-amber-100 px-3 py-1 text-center text-sm font-medium text-slate-950 shadow"
            data-testid="live-map-stale"
          >
            Not live: <DataAsOf time={dataAsOf} />
          </p>
        )}
      </div>
    </div>
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
      const layer = layerOfGeometry(typed, { color: GEOFENCE_COLORS[typed.shape] }).addTo(map);
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
  useEffect(() => {
    if (!socket) return;
    const requestSnapshot = () => socket.emit('requestSnapshot');
    const onSnapshot = (snapshot: Parameters<LivePositionFeed['snapshot']>[0]) => feed.snapshot(snapshot);
    const onChanges = (changes: Parameters<LivePositionFeed['changes']>[0]) => feed.changes(changes);
    const onDisconnected = (trackingId: string) => feed.disconnected(trackingId);
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
    };
  }, [socket, feed]);
}

function focusRow(map: L.Map | null, layer: TrackedMarkersLayer, row: TrackedPrisonerRow) {
  if (!map || !row.position) return;
  const position = layer.positionOf(row.trackingId) ?? row.position;
  map.setView(position, Math.max(map.getZoom(), 16));
  if (layer.has(row.trackingId)) layer.openMarkerPopup(row.trackingId);
}

function trackedRows(
  devices: {
    id: string;
    name: string;
    prisoner_id: number | null;
    prisoner_name: string | null;
    prisoner_cell_id?: string | null;
    latitude: number | null;
    longitude: number | null;
  }[],
  live: ReadonlyMap<string, TrackedLocation>,
  violations: ReadonlySet<number>,
): TrackedPrisonerRow[] {
  const rows = new Map<string, TrackedPrisonerRow>();
  for (const device of devices) {
    const position = live.get(device.id);
    rows.set(device.id, {
      trackingId: device.id,
      name: device.prisoner_name ?? position?.name ?? device.name,
      prisonerId: device.prisoner_id,
      cellId: position?.cellId ?? device.prisoner_cell_id ?? null,
      online: position !== undefined,
      inViolation: device.prisoner_id !== null && violations.has(device.prisoner_id),
      position: position
        ? [position.latitude, position.longitude]
        : device.latitude !== null && device.longitude !== null
          ? [device.latitude, device.longitude]
          : null,
    });
  }
  // Live devices the device list does not know yet (it refreshes less often).
  for (const [trackingId, position] of live) {
    if (rows.has(trackingId)) continue;
    rows.set(trackingId, {
      trackingId,
      name: position.name,
      prisonerId: position.prisonerId,
      cellId: position.cellId ?? null,
      online: true,
      inViolation: position.prisonerId !== null && violations.has(position.prisonerId),
      position: [position.latitude, position.longitude],
    });
  }
  return [...rows.values()];
}
