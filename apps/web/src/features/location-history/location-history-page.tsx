// Location history (/location-history): choose a prisoner and a range, replay the track on the map, read the
// distance, time in each geofence and the alerts, and export the range as GPX or CSV.
import { useMemo, useState } from 'react';
import { Download } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { HistoryResponse } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { exportUrl, useClientSettings, useGeofences, useHistory, type HistoryRange } from './api';
import { HistoryMap } from './history-map';
import { HistorySummary } from './history-summary';
import { PlayerControls } from './player-controls';
import { PrisonerPicker, type PickedPrisoner } from './prisoner-picker';
import { PRESET_LABELS, RANGE_PRESETS, presetRange, toLocalInput, type RangePreset } from './time-range';
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

export function LocationHistoryPage() {
  // The live map's popup links here with ?prisoner=ID&name=NAME: that prisoner is chosen already.
  const [params] = useSearchParams();
  const [prisoner, setPrisoner] = useState<PickedPrisoner | null>(() => {
    const id = Number(params.get('prisoner'));
    return Number.isInteger(id) && id > 0 ? { id, name: params.get('name') || `Prisoner ${id}` } : null;
  });
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
          {!range ? (
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
