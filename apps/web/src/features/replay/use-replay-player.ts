// The replay's player: a clock in milliseconds after the window's start, advanced on animation frames at x1 to x60.
// Frames read the clock from a ref (the map moves every frame); React hears it at most CONTROLS_HZ times a second.
import { useCallback, useEffect, useRef, useState } from 'react';
import { advanceClock } from './replay-clock';

const CONTROLS_HZ = 8;

export function useReplayPlayer(duration: number, onFrame: (time: number) => void) {
  const timeRef = useRef(0);
  const [time, setTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const frameRef = useRef(onFrame);
  frameRef.current = onFrame;

  useEffect(() => {
    timeRef.current = 0;
    setTime(0);
    setPlaying(false);
    frameRef.current(0);
  }, [duration]);

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let shown = last;
    let frame = requestAnimationFrame(function tick(now) {
      timeRef.current = advanceClock(timeRef.current, now - last, speed, duration);
      last = now;
      frameRef.current(timeRef.current);
      const ended = timeRef.current >= duration;
      if (ended || now - shown >= 1000 / CONTROLS_HZ) {
        shown = now;
        setTime(timeRef.current);
      }
      if (ended) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, duration]);

  const seek = useCallback(
    (to: number) => {
      timeRef.current = Math.max(0, Math.min(duration, to));
      setTime(timeRef.current);
      frameRef.current(timeRef.current);
    },
    [duration],
  );

  const play = useCallback(() => {
    // Play at the end plays again from the start.
    if (timeRef.current >= duration) seek(0);
    setPlaying(true);
  }, [duration, seek]);
  const pause = useCallback(() => setPlaying(false), []);

  return { time, playing, speed, setSpeed, play, pause, seek, timeRef };
}
