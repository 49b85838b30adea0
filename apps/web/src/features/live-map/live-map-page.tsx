// /live-map (docs/CLIENT-CONTRACT.md): geofences drawn (or typed in) and edited on a Leaflet map, tracked prisoners moving
// live on a canvas layer, and a side panel listing them (a drawer on phones). Decision 026: the map opens on the
// operator's last view or fitted to the geofences, markers are coloured by the worst open alert (grey offline), and
// a marker's popup carries the prisoner's live picture with Acknowledge. This file lays the page out and holds its
// state; its parts live beside it (site-view, new-geofence, use-live-feed, use-map-links, tracked-rows).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type L from 'leaflet';
import { useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import type { LiveMapPrisonerAlerts } from '@prison/shared/alert';
import { geofenceColor } from '@prison/shared/geofence';
import type { TrackedLocation } from '@prison/shared/realtime';
import type { ClientSettings } from '@prison/shared/settings';
import { Button } from '../../components/ui/button';
import { DataAsOf } from '../../components/ui/feed-health';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { isStale, useFeedHealth } from '../../lib/feed-health';
import { useMay } from '../../lib/use-may';
import { useNow } from '../../lib/use-now';
import { BLOCK_AREA_COLOR, BlockAreaLayer } from '../../map/block-area-layer';
import { geometryOfGeofence, type DrawnGeometry } from '../../map/drawn-shape';
import { EditableShape } from '../../map/editable-shape';
import { GeofenceLayer } from '../../map/geofence-layer';
import { MapView } from '../../map/map-view';
import { ReaderLayer } from '../../map/reader-layer';
import { TrackedMarkers } from '../../map/tracked-markers';
import { TrackedMarkersLayer, type MarkerPopupSlot } from '../../map/tracked-markers-layer';
import { useReaders } from '../readers';
import { useBlockAreas } from './api/block-areas';
import { useGeofences } from './api/geofences';
import { useClientSettings } from './api/settings';
import { useActiveEscorts, useAssignedDevices, useLiveMapAlerts } from './api/tracked-prisoners';
import { BlockAreaEditor, type AreaDraft } from './components/block-area-editor';
import { GeofenceEditor } from './components/geofence-editor';
import { GeofenceList } from './components/geofence-list';
import { MarkerPopupDetails } from './components/marker-popup-details';
import { NewGeofence } from './components/new-geofence';
import { PendingApprovals } from './components/pending-approvals';
import { FitSiteControl, KeepView, useMapStart } from './components/site-view';
import { StaffInDanger, officerNameOf } from './components/staff-in-danger';
import { TrackedPrisonerList, type TrackedPrisonerRow } from './components/tracked-prisoner-list';
import { LivePositionFeed } from './live-position-feed';
import { escortLinks, lastKnownPlaces, trackedRows, worstLevels } from './tracked-rows';
import { useLiveFeed } from './use-live-feed';
import { focusRow, useFocusFromLink, useStaffAssist } from './use-map-links';

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
  // Block areas: drawn with their names; the one being edited only by its editable layer.
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

  // A link's tracker to centre on, and an officer's SOS to mark (decision 072).
  const [params] = useSearchParams();
  useFocusFromLink({ params, mapRef, layer, rows, live, mapReady: mapStart });
  const assist = useStaffAssist(params, popupSlot?.id ?? null);

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
            {assist.alert && (
              <StaffInDanger
                key={assist.alert.alert_id}
                alert={assist.alert}
                officerName={officerNameOf(assist.alert, live.get(assist.alert.device_id)?.name)}
                positionOf={(id) => layer.positionOf(id)}
                fit={assist.fit}
                onHide={assist.hide}
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
