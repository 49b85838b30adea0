// Location history (/location-history): choose a prisoner and a range, replay the track on the map, read the
// distance, time in each geofence and the alerts, and export the range as GPX or CSV. The chosen prisoner is in the
// URL (/location-history?prisoner=ID), so the details screen can link to a prisoner's history (decision 029).
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Download } from 'lucide-react';
import type { HistoryResponse } from '@prison/shared/history';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { exportUrl, useHistory, usePrisonerById, type HistoryRange } from './api';
import { useClientSettings } from '../../lib/client-settings';
import { useGeofences } from '../../lib/geofence-list';
import { prisonerLabel } from '../../lib/prisoner-label';
import { HistoryMap } from './history-map';
import { HistorySummary } from './history-summary';
import { PlayerControls } from '../../components/track-player';
import { PrisonerPicker, type PickedPrisoner } from './prisoner-picker';
import { PRESET_LABELS, RANGE_PRESETS, presetRange, toLocalInput, type RangePreset } from '../../lib/time-range';
import { useTrackPlayer, type TimedPoint } from './use-track-player';

function RangePicker({ onChange }: { onChange(range: { from: string; to: string }): void }) {
  const [preset, setPreset] = useState<RangePreset>('last-24-hours');
  const initial = presetRange('last-24-hours');
  const [custom, setCustom] = useState({ from: toLocalInput(initial.from), to: toLocalInput(initial.to) });
  const [error, setError] = useState<string | null>(null);

  const choose = (next: RangePreset) => {
    setPreset(next);
    if (next !== 'custom') onChange(presetRange(next));
  };
  const applyCustom = () => {
    const from = new Date(custom.from);
    const to = new Date(custom.to);
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
      return setError('Enter both the start and the end.');
    if (from >= to) return setError('The end must be after the start.');
    setError(null);
    onChange({ from: from.toISOString(), to: to.toISOString() });
  };

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">Time range</legend>
      <div className="flex flex-wrap gap-1" role="radiogroup" aria-label="Time range">
        {RANGE_PRESETS.map((p) => (
          <Button
            key={p}
            size="sm"
            variant={preset === p ? 'primary' : 'secondary'}
            role="radio"
            aria-checked={preset === p}
            onClick={() => choose(p)}
          >
            {PRESET_LABELS[p]}
          </Button>
        ))}
      </div>
      {preset === 'custom' && (
        <div className="flex flex-col gap-2">
          <TextField
            label="From"
            type="datetime-local"
            value={custom.from}
            onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
          />
          <TextField
            label="To"
            type="datetime-local"
            value={custom.to}
            onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
          />
          {error && (
            <p role="alert" className="text-xs text-red-700">
              {error}
            </p>
          )}
          <Button size="sm" onClick={applyCustom}>
            Show range
          </Button>
        </div>
      )}
    </fieldset>
  );
}

function TrackView({ history, range }: { history: HistoryResponse; range: HistoryRange }) {
  const settings = useClientSettings();
  const geofences = useGeofences();
  const points = useMemo<TimedPoint[]>(() => history.points.map((p) => ({ ...p, ms: Date.parse(p.t) })), [history]);
  const player = useTrackPlayer(points);
  const [follow, setFollow] = useState(false);

  if (settings.isPending) return <Loading text="Loading map..." />;
  if (settings.isError)
    return <ErrorText>{errorMessage(settings.error, 'Failed to load the map settings.')}</ErrorText>;

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-slate-900">{history.prisoner_name}</h2>
          <div className="flex gap-2">
            <a
              href={exportUrl(range, 'gpx')}
              download
              className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
            >
              <Download className="h-4 w-4" aria-hidden /> Export GPX
            </a>
            <a
              href={exportUrl(range, 'csv')}
              download
              className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
            >
              <Download className="h-4 w-4" aria-hidden /> Export CSV
            </a>
          </div>
        </div>
        {history.total === 0 ? (
          <EmptyState>No fixes for this prisoner in this range.</EmptyState>
        ) : (
          <PlayerControls
            start={player.start}
            end={player.end}
            time={player.time}
            playing={player.playing}
            speed={player.speed}
            follow={follow}
            position={player.position}
            onPlay={player.play}
            onPause={player.pause}
            onSeek={player.seek}
            onSpeed={player.setSpeed}
            onFollow={setFollow}
          />
        )}
        {geofences.isError && <ErrorText>{errorMessage(geofences.error, 'Failed to fetch the geofences.')}</ErrorText>}
        <HistoryMap
          settings={settings.data}
          geofences={geofences.data ?? []}
          points={points}
          position={player.position}
          follow={follow}
        />
      </div>
      <HistorySummary
        history={history}
        onJump={(ms) => {
          player.pause();
          player.seek(ms);
        }}
      />
    </div>
  );
}

/** A positive whole number from the URL, or null. */
function idParam(value: string | null): number | null {
  const id = value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  return id > 0 ? id : null;
}

/** The prisoner the URL names: the one just picked, or read by id (a link from the details screen). */
function useUrlPrisoner() {
  const [params, setParams] = useSearchParams();
  const id = idParam(params.get('prisoner'));
  const [picked, setPicked] = useState<PickedPrisoner | null>(null);
  const byId = usePrisonerById(id !== null && picked?.id !== id ? id : null);
  let prisoner: PickedPrisoner | null = null;
  if (id !== null && picked?.id === id) prisoner = picked;
  else if (id !== null && byId.data)
    prisoner = {
      id,
      name: prisonerLabel({
        name: `${byId.data.first_name} ${byId.data.last_name}`,
        prisonerId: id,
        cellId: byId.data.cell_id,
      }),
    };
  const choose = (next: PickedPrisoner) => {
    setPicked(next);
    setParams((current) => {
      const updated = new URLSearchParams(current);
      updated.set('prisoner', String(next.id));
      return updated;
    });
  };
  return { prisoner, choose, lookup: id !== null && picked?.id !== id ? byId : null };
}

export function LocationHistoryPage() {
  const { prisoner, choose: setPrisoner, lookup } = useUrlPrisoner();
  const [timeWindow, setTimeWindow] = useState(() => presetRange('last-24-hours'));
  const range: HistoryRange | null = prisoner ? { prisonerId: prisoner.id, ...timeWindow } : null;
  const history = useHistory(range);

  return (
    <Page title="Location History">
      <div className="grid gap-4 md:grid-cols-[18rem_1fr]">
        <div className="flex flex-col gap-4">
          <PrisonerPicker value={prisoner} onChange={setPrisoner} />
          <RangePicker onChange={setTimeWindow} />
        </div>
        <div>
          {lookup?.isError ? (
            <ErrorText>{errorMessage(lookup.error, 'Failed to fetch the prisoner.')}</ErrorText>
          ) : lookup?.isPending ? (
            <Loading text="Loading prisoner..." />
          ) : !range ? (
            <EmptyState>Choose a prisoner to see where they were.</EmptyState>
          ) : history.isPending ? (
            <Loading text="Loading track..." />
          ) : history.isError ? (
            <ErrorText>{errorMessage(history.error, 'Failed to fetch the location history.')}</ErrorText>
          ) : (
            <TrackView history={history.data} range={range} />
          )}
        </div>
      </div>
    </Page>
  );
}
