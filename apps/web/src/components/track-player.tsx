// Play, pause, speed (1x to 60x), a time slider and follow mode.
import { Pause, Play } from 'lucide-react';
import { HISTORY_PLAYER_SPEEDS } from '@prison/shared/history';
import { Button } from './ui/button';
import { formatPlayerTime } from '../lib/time-range';

interface PlayerControlsProps {
  start: number;
  end: number;
  time: number;
  playing: boolean;
  speed: number;
  follow: boolean;
  position: { lat: number; lng: number } | null;
  onPlay(): void;
  onPause(): void;
  onSeek(time: number): void;
  onSpeed(speed: number): void;
  onFollow(follow: boolean): void;
}

export function PlayerControls(props: PlayerControlsProps) {
  const { start, end, time, playing, speed, follow } = props;
  return (
    <div
      role="group"
      aria-label="Track player"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3"
    >
      {playing ? (
        <Button onClick={props.onPause} aria-label="Pause">
          <Pause className="h-4 w-4" aria-hidden /> Pause
        </Button>
      ) : (
        <Button onClick={props.onPlay} aria-label="Play" disabled={end <= start}>
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
          {HISTORY_PLAYER_SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}x
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label="Time"
        aria-valuetext={formatPlayerTime(time)}
        min={start}
        max={Math.max(end, start + 1)}
        step={1000}
        value={time}
        onChange={(event) => props.onSeek(Number(event.target.value))}
        className="min-w-48 flex-1 accent-red-600"
      />
      <output
        data-testid="player-time"
        data-time={Math.round(time)}
        className="w-40 text-sm tabular-nums text-slate-800"
      >
        {formatPlayerTime(time)}
      </output>
      {props.position && (
        <span
          data-testid="player-position"
          className="text-xs tabular-nums text-slate-500"
          title="Position at the player's time"
        >
          {props.position.lat.toFixed(5)}, {props.position.lng.toFixed(5)}
        </span>
      )}
      <label className="flex items-center gap-1.5 text-sm text-slate-700">
        <input type="checkbox" checked={follow} onChange={(event) => props.onFollow(event.target.checked)} />
        Follow
      </label>
    </div>
  );
}
