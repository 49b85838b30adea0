// Replay of everyone: every tracker (or a block's, or chosen people's) over a window on the live
// map's canvas layer, with play/pause, x1-x60, a time slider, short trails, geofences as they were and the window's
// alerts on the timeline. Markers take the colour of each wearer's worst alert open at the clock and the live map's
// labels; the people list names each person once with prison number and cell. A chosen tracker links to "Who was near this person"; the window opens an incident.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type L from 'leaflet';
import type { ReplayResponse, ReplayTrack } from '@prison/shared/replay';
import type { ClientSettings } from '@prison/shared/settings';
import { Button } from '../../components/ui/button';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useMay } from '../../lib/use-may';
import { prisonerTag } from '../../lib/prisoner-label';
import { MARKER_COLOURS, MARKER_LEVEL_TEXT, markerLabel, markerLevel } from '../../map/marker-style';
import { GLIDE_MS, TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { useClientSettings } from '../../lib/client-settings';
import { presetRange, toLocalInput } from '../../lib/time-range';
import { nearScreenUrl } from '../../lib/screen-links';
import { OpenIncidentDialog, type IncidentDraft } from '../incidents';
import { useBlocks, useReplay, type ReplayRequest } from './api';
import { NO_STEPS, alertStepsByTrack, worstOpenAt } from './replay-alert-states';
import { geofencesAt, positionAt } from './replay-clock';
import { ReplayControls } from './replay-controls';
import { ReplayMap } from './replay-map';
import { useReplayPlayer } from './use-replay-player';

const TEST_HOOKS = import.meta.env.DEV || import.meta.env.VITE_TEST_HOOKS === '1';
/** Trails follow the clock this often; the markers follow every frame. */
const TRAIL_REFRESH_MS = 250;

declare global {
  interface Window {
    /** Test and benchmark hook (development and test builds only). */
    __replay?: { layer: TrackedMarkersLayer; readonly time: number; play(): void; setSpeed(speed: number): void; readonly map: L.Map | null };
  }
}

const ids = (text: string | null) => (text ? text.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);

function requestFrom(params: URLSearchParams): ReplayRequest {
  const fallback = presetRange('last-hour');
  return {
    from: params.get('from') ?? fallback.from,
    to: params.get('to') ?? fallback.to,
    block: params.get('block') ?? undefined,
    prisonerIds: ids(params.get('prisoner_ids')),
    staffIds: ids(params.get('staff_ids')),
  };
}

export function ReplayPage() {
  const settings = useClientSettings();
  const [params, setParams] = useSearchParams();
  const request = useMemo(() => requestFrom(params), [params]);
  const replay = useReplay(request);
  const incidentId = params.get('incident');

  return (
    <Page
      title="Replay of everyone"
      actions={
        incidentId ? (
          <Link to={`/incidents/${incidentId}`} className="text-sm text-blue-800 underline">
            Back to incident #{incidentId}
          </Link>
        ) : undefined
      }
    >
      <WindowForm request={request} onChange={(next) => setParams(next)} />
      {settings.isPending || replay.isPending ? (
        <Loading text="Loading the replay..." />
      ) : settings.isError ? (
        <ErrorText>{errorMessage(settings.error, 'Failed to load the map settings.')}</ErrorText>
      ) : replay.isError ? (
        <ErrorText>{errorMessage(replay.error, 'Failed to load the replay.')}</ErrorText>
      ) : replay.data.tracks.length === 0 ? (
        <EmptyState>No tracker sent a position in this window.</EmptyState>
      ) : (
        <ReplayPlayer key={`${replay.data.from}/${replay.data.to}`} settings={settings.data} data={replay.data} />
      )}
    </Page>
  );
}

function WindowForm({ request, onChange }: { request: ReplayRequest; onChange(params: URLSearchParams): void }) {
  const blocks = useBlocks();
  const [from, setFrom] = useState(toLocalInput(request.from));
  const [to, setTo] = useState(toLocalInput(request.to));
  const [block, setBlock] = useState(request.block ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    if (block) next.set('block', block);
    if (request.prisonerIds?.length) next.set('prisoner_ids', request.prisonerIds.join(','));
    if (request.staffIds?.length) next.set('staff_ids', request.staffIds.join(','));
    onChange(next);
  };
  return (
    <form onSubmit={submit} aria-label="Replay window" className="mb-3 flex flex-wrap items-end gap-3">
      <label className="flex flex-col text-sm text-slate-700">
        From
        <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} required className="rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <label className="flex flex-col text-sm text-slate-700">
        To
        <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} required className="rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <label className="flex flex-col text-sm text-slate-700">
        Who
        <select value={block} onChange={(e) => setBlock(e.target.value)} className="rounded-md border border-slate-300 bg-white px-2 py-1">
          <option value="">{request.prisonerIds?.length || request.staffIds?.length ? 'The chosen people' : 'Everyone'}</option>
          {(blocks.data ?? []).map((name) => (
            <option key={name} value={name}>
              Block {name}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit">Show</Button>
    </form>
  );
}

const wearerLabel = (track: ReplayTrack) => (track.wearer === 'staff' ? 'Staff' : track.wearer === 'prisoner' ? `Prisoner${track.block ? `, block ${track.block}` : ''}` : 'Unassigned tracker');
const trackTag = (track: ReplayTrack) => prisonerTag({ prisonerId: track.prisoner_id, prisonNumber: track.prison_number, cellId: track.cell_id });

/** One row of the people list: a person (or an unworn tracker) with every tracker he wore in the window. */
interface ReplayPerson {
  key: string;
  name: string;
  tag: string;
  deviceIds: string[];
}

function peopleOf(tracks: readonly ReplayTrack[]): ReplayPerson[] {
  const byKey = new Map<string, ReplayPerson>();
  for (const track of tracks) {
    const key = track.prisoner_id !== null ? `p${track.prisoner_id}` : track.staff_id !== null ? `s${track.staff_id}` : `d${track.device_id}`;
    const known = byKey.get(key);
    if (known) known.deviceIds.push(track.device_id);
    else byKey.set(key, { key, name: track.name, tag: track.wearer === 'staff' ? 'Staff' : trackTag(track), deviceIds: [track.device_id] });
  }
  return [...byKey.values()];
}

function ReplayPlayer({ settings, data }: { settings: ClientSettings; data: ReplayResponse }) {
  const mayOpenIncident = useMay('incidents.write');
  const start = Date.parse(data.from);
  const duration = Date.parse(data.to) - start;
  const [layer] = useState(() => new TrackedMarkersLayer());
  const mapRef = useRef<L.Map | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [trailTime, setTrailTime] = useState(0);
  const [draft, setDraft] = useState<IncidentDraft | null>(null);
  const shown = useMemo(() => (chosen.size === 0 ? data.tracks : data.tracks.filter((track) => chosen.has(track.device_id))), [data.tracks, chosen]);
  const lastTrail = useRef(0);
  const pendingTrail = useRef<number | undefined>(undefined);
  const steps = useMemo(() => alertStepsByTrack(data.tracks, data.alerts), [data.tracks, data.alerts]);
  // Built once per answer, not per frame: the popup's detail and the live map's label of each tracker.
  const looks = useMemo(
    () =>
      new Map(
        data.tracks.map((track) => {
          const tag = trackTag(track);
          return [track.device_id, { detail: tag ? `${wearerLabel(track)} · ${tag}` : wearerLabel(track), label: markerLabel(track.name, track.cell_id) }];
        }),
      ),
    [data.tracks],
  );
  const people = useMemo(() => peopleOf(data.tracks), [data.tracks]);

  // Every frame: each shown tracker where the clock says, without the live map's glide; gone before its first fix and
  // once its last is older than HOLD_MS.
  const drawAt = useCallback(
    (time: number) => {
      const now = performance.now();
      for (const track of shown) {
        const at = positionAt(track.points, time);
        if (at) {
          const look = looks.get(track.device_id)!;
          const level = markerLevel(true, worstOpenAt(steps.get(track.device_id) ?? NO_STEPS, time));
          layer.upsert(
            track.device_id,
            { name: track.name, ...look, level, latitude: at[0], longitude: at[1], shape: track.wearer === 'staff' ? 'staff' : 'dot' },
            now - GLIDE_MS,
          );
        } else if (layer.has(track.device_id)) layer.removeMarker(track.device_id);
      }
      window.clearTimeout(pendingTrail.current);
      if (now - lastTrail.current >= TRAIL_REFRESH_MS || time === 0 || time >= duration) {
        lastTrail.current = now;
        setTrailTime(time);
      } else {
        // A seek while paused draws once: the trails, geofences and people list still follow it, a moment later.
        pendingTrail.current = window.setTimeout(() => setTrailTime(time), TRAIL_REFRESH_MS);
      }
    },
    [layer, shown, duration, looks, steps],
  );
  const player = useReplayPlayer(duration, drawAt);

  // A different set of trackers: the others leave the map, the rest are drawn at the clock.
  useEffect(() => {
    const keep = new Set(shown.map((track) => track.device_id));
    for (const id of layer.ids()) if (!keep.has(id)) layer.removeMarker(id);
    drawAt(player.timeRef.current);
  }, [layer, shown, drawAt, player.timeRef]);

  useEffect(() => {
    layer.onPopupChange = (slot) => slot && setSelectedId(slot.id);
    return () => {
      layer.onPopupChange = null;
    };
  }, [layer]);

  useEffect(() => {
    if (!TEST_HOOKS) return;
    window.__replay = {
      layer,
      get time() {
        return player.timeRef.current;
      },
      play: player.play,
      setSpeed: player.setSpeed,
      get map() {
        return mapRef.current;
      },
    };
    return () => {
      delete window.__replay;
    };
  }, [layer, player.timeRef, player.play, player.setSpeed]);

  // The geofences change only when the clock passes one of their changes.
  const applied = data.geofence_changes.filter((change) => change.t <= trailTime).length;
  const geofences = useMemo(() => geofencesAt(data.geofences, data.geofence_changes, trailTime), [data, applied]); // eslint-disable-line react-hooks/exhaustive-deps

  const selected = data.tracks.find((track) => track.device_id === selectedId) ?? null;
  const toggle = (person: ReplayPerson) =>
    setChosen((current) => {
      const next = new Set(current);
      const on = person.deviceIds.some((id) => next.has(id));
      for (const id of person.deviceIds) {
        if (on) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  const levelNow = (person: ReplayPerson) => {
    for (const level of ['Critical', 'Warning', 'Informational'] as const) {
      if (person.deviceIds.some((id) => worstOpenAt(steps.get(id) ?? NO_STEPS, trailTime) === level)) return markerLevel(true, level);
    }
    return 'none' as const;
  };
  const openIncident = () => {
    const people = chosen.size > 0 ? shown : selected ? [selected] : [];
    const prisonerIds = people.flatMap((track) => (track.prisoner_id === null ? [] : [track.prisoner_id]));
    const staffIds = people.flatMap((track) => (track.staff_id === null ? [] : [track.staff_id]));
    setDraft({
      window: { from: data.from, to: data.to },
      prisoner_ids: prisonerIds,
      staff_ids: staffIds,
      linked: people.length === 0 ? 'Nobody chosen: link people on the incident page.' : `Linked: ${people.map((track) => track.name).join(', ')}.`,
    });
  };

  return (
    <div className="flex flex-col gap-3">
      <ReplayControls
        start={start}
        duration={duration}
        time={player.time}
        playing={player.playing}
        speed={player.speed}
        alerts={data.alerts}
        onPlay={player.play}
        onPause={player.pause}
        onSeek={player.seek}
        onSpeed={player.setSpeed}
      />
      <div className="grid gap-3 lg:grid-cols-[1fr_18rem]">
        <div data-testid="replay-map" data-marker-count={shown.length}>
          <ReplayMap settings={settings} layer={layer} tracks={shown} trailTime={trailTime} geofences={geofences} selectedId={selectedId} mapRef={mapRef} />
          {data.step_ms > 0 && (
            <p className="mt-1 text-xs text-slate-600">Thinned to one position per {Math.round(data.step_ms / 1000)} s per tracker: the window holds more positions than one replay plays.</p>
          )}
        </div>
        <aside aria-label="Trackers" className="flex flex-col gap-2">
          {selected && (
            <section aria-label="Chosen tracker" className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="font-medium text-slate-900">{selected.name}</p>
              <p className="text-slate-700">{looks.get(selected.device_id)?.detail}</p>
              {(selected.prisoner_id !== null || selected.staff_id !== null) && (
                <Link
                  className="text-blue-800 underline"
                  to={nearScreenUrl(
                    selected.prisoner_id !== null ? { prisonerId: selected.prisoner_id } : { staffId: selected.staff_id! },
                    data.from,
                    data.to,
                  )}
                >
                  Who was near this person
                </Link>
              )}
            </section>
          )}
          {mayOpenIncident && (
            <Button variant="secondary" onClick={openIncident}>
              Open an incident for this window
            </Button>
          )}
          <p className="text-xs text-slate-600">Tick people to play only them; none ticked plays everyone.</p>
          <ul className="max-h-[50vh] overflow-auto rounded-lg border border-slate-200 bg-white">
            {people.map((person) => {
              const level = levelNow(person);
              return (
                <li key={person.key} data-level={level} className="flex items-center gap-2 border-b border-slate-100 px-2 py-1 text-sm last:border-0">
                  <input
                    type="checkbox"
                    aria-label={`Play only chosen: ${person.name}`}
                    checked={person.deviceIds.some((id) => chosen.has(id))}
                    onChange={() => toggle(person)}
                  />
                  <button
                    type="button"
                    onClick={() => setSelectedId(person.deviceIds[0]!)}
                    aria-pressed={selectedId !== null && person.deviceIds.includes(selectedId)}
                    className="flex min-w-0 flex-1 flex-col text-left text-slate-800 hover:underline"
                  >
                    <span className="truncate">{person.name}</span>
                    {person.tag && <span className="truncate text-xs text-slate-600">{person.tag}</span>}
                  </button>
                  {level !== 'none' && (
                    <span className="flex shrink-0 items-center gap-1 text-xs text-slate-700">
                      <span className="h-2.5 w-2.5 rounded-full" style={{ background: MARKER_COLOURS[level] }} aria-hidden />
                      {MARKER_LEVEL_TEXT[level]}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </aside>
      </div>
      <OpenIncidentDialog key={draft ? 'open' : 'closed'} draft={draft} onClose={() => setDraft(null)} />
    </div>
  );
}
