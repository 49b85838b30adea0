// The replay's controls: play/pause (Space anywhere outside a field), speed x1 to x60, a time slider (arrow keys:
// 1 s, Page keys: 1 min) and the window's alerts as marks on the timeline that jump there (click or Enter), one lane
// per level with Critical on top, so a Critical mark is never covered by a lesser one raised seconds later.
import { useEffect } from 'react';
import { Pause, Play } from 'lucide-react';
import type { AlertType } from '@prison/shared/constants';
import type { ReplayAlert } from '@prison/shared/replay';
import { Button } from '../../components/ui/button';
import { formatPlayerTime } from '../../lib/time-range';
import { REPLAY_SPEEDS } from './replay-clock';

const MARK_COLOURS: Record<AlertType, string> = { Critical: 'bg-red-700', Warning: 'bg-amber-600', Informational: 'bg-blue-700' };
/** Lanes top to bottom. */
const LANES: readonly AlertType[] = ['Critical', 'Warning', 'Informational'];

interface ReplayControlsProps {
  start: number;
  duration: number;
  time: number;
  playing: boolean;
  speed: number;
  alerts: ReplayAlert[];
  onPlay(): void;
  onPause(): void;
  onSeek(time: number): void;
  onSpeed(speed: number): void;
}

const inField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(target.tagName));

export function ReplayControls(props: ReplayControlsProps) {
  const { start, duration, time, playing, speed, alerts, onPlay, onPause } = props;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.code !== 'Space' || inField(event.target) || event.defaultPrevented) return;
      event.preventDefault();
      if (playing) onPause();
      else onPlay();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [playing, onPlay, onPause]);

  return (
    <div role="group" aria-label="Replay player" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center gap-3">
        {playing ? (
          <Button onClick={onPause} aria-label="Pause" aria-keyshortcuts="Space">
            <Pause className="h-4 w-4" aria-hidden /> Pause
          </Button>
        ) : (
          <Button onClick={onPlay} aria-label="Play" aria-keyshortcuts="Space" disabled={duration <= 0}>
            <Play className="h-4 w-4" aria-hidden /> Play
          </Button>
        )}
        <label className="flex items-center gap-1 text-sm text-slate-700">
          Speed
          <select
            aria-label="Speed"
            value={speed}
            onChange={(event) => props.onSpeed(Number(event.target.value))}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          >
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                x{s}
              </option>
            ))}
          </select>
        </label>
        <output data-testid="replay-time" data-time={Math.round(time)} className="text-sm tabular-nums text-slate-800">
          {formatPlayerTime(start + time)}
        </output>
      </div>
      <input
        type="range"
        aria-label="Replay time"
        aria-valuetext={formatPlayerTime(start + time)}
        min={0}
        max={Math.max(duration, 1)}
        step={1000}
        value={time}
        onChange={(event) => props.onSeek(Number(event.target.value))}
        onKeyDown={(event) => {
          if (event.key === 'PageUp' || event.key === 'PageDown') {
            event.preventDefault();
            props.onSeek(time + (event.key === 'PageUp' ? 60_000 : -60_000));
          }
        }}
        className="w-full accent-red-600"
      />
      {alerts.length > 0 && (
        <div aria-label="Alerts on the timeline" role="group" className="flex flex-col gap-1">
          {LANES.map((level) => {
            const marks = alerts.filter((alert) => alert.alert_type === level);
            if (marks.length === 0) return null;
            return (
              <div key={level} className="flex items-center gap-2">
                <span className="w-24 shrink-0 text-xs text-slate-700" aria-hidden>
                  {level}
                </span>
                <div role="list" aria-label={`${level} alerts on the timeline`} className="relative h-6 flex-1">
                  {/* Later marks are drawn over earlier ones of the same level only: each lane is its own row. */}
                  {marks.map((alert) => (
                    <div
                      role="listitem"
                      key={alert.id}
                      className="absolute top-0"
                      style={{ left: `clamp(0px, calc(${(alert.t / Math.max(duration, 1)) * 100}% - 12px), calc(100% - 24px))` }}
                    >
                      <button
                        type="button"
                        aria-label={`${level} alert at ${formatPlayerTime(start + alert.t)}: ${alert.details}`}
                        title={`${level}: ${alert.details}`}
                        onClick={() => props.onSeek(alert.t)}
                        className="flex h-6 w-6 items-center justify-center rounded-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 focus-visible:ring-slate-900"
                      >
                        <span className={`block h-5 w-3 rounded-sm ${MARK_COLOURS[level]}`} aria-hidden />
                      </button>
                    </div>
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
