// The replay clock: plays the track's time at a chosen speed; the position is interpolated between fixes.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { HistoryPoint } from '@prison/shared/history';

export interface TrackPosition {
  lat: number;
  lng: number;
  /** Index of the fix at or before the clock. */
  index: number;
}

export interface TimedPoint extends HistoryPoint {
  ms: number;
}

/** Where the prisoner was at `time`: between the fixes around it, on the straight line. */
export function positionAt(points: readonly TimedPoint[], time: number): TrackPosition | null {
  if (points.length === 0) return null;
  if (time <= points[0]!.ms) return { lat: points[0]!.lat, lng: points[0]!.lng, index: 0 };
  const last = points.length - 1;
  if (time >= points[last]!.ms) return { lat: points[last]!.lat, lng: points[last]!.lng, index: last };
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.ms <= time) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const f = b.ms === a.ms ? 0 : (time - a.ms) / (b.ms - a.ms);
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f, index: lo };
}

export function useTrackPlayer(points: readonly TimedPoint[]) {
  const start = points[0]?.ms ?? 0;
  const end = points.at(-1)?.ms ?? 0;
  const [time, setTime] = useState(start);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const timeRef = useRef(start);

  // A new track starts at its beginning, paused.
  useEffect(() => {
    timeRef.current = start;
    setTime(start);
    setPlaying(false);
  }, [start, end]);

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      timeRef.current = Math.min(end, timeRef.current + (now - last) * speed);
      last = now;
      setTime(timeRef.current);
      if (timeRef.current >= end) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, end]);

  const seek = useCallback(
    (to: number) => {
      timeRef.current = Math.max(start, Math.min(end, to));
      setTime(timeRef.current);
    },
    [start, end],
  );

  const play = useCallback(() => {
    // Play at the end replays from the start.
    if (timeRef.current >= end) seek(start);
    setPlaying(true);
  }, [end, start, seek]);

  const position = useMemo(() => positionAt(points, time), [points, time]);
  return { start, end, time, playing, speed, position, play, pause: () => setPlaying(false), seek, setSpeed };
}
