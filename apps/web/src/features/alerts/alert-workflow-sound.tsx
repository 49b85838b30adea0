// A beep for Critical alerts, on unless switched off in this browser (localStorage; issue 11). Web Audio makes the
// sound: no file, so the CSP's media-src is not involved.
import { useEffect, useRef } from 'react';
import { browserSwitch } from '../../lib/browser-switch';
import { useSocketEvent } from '../../lib/realtime';
import { useOpenAlerts } from './api/open-alerts';

// A stored 'off' is the only way off: the sound is on by default.
const criticalSound = browserSwitch('prison.criticalAlertSound', true);
const isCriticalSoundOn = criticalSound.isOn;

let audio: AudioContext | null = null;

function audioContext(): AudioContext | null {
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  return audio;
}

/** Three short 880 Hz beeps, about 0.6 s in all. */
export function playCriticalBeep() {
  const audio = audioContext();
  if (!audio) return;
  void audio.resume();
  const start = audio.currentTime;
  for (let i = 0; i < 3; i++) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = 880;
    const t = start + i * 0.2;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.15);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(t);
    oscillator.stop(t + 0.16);
  }
}

/** The switch, on the alerts screen. The first click also unlocks audio, which browsers allow only after a gesture. */
export function AlertWorkflowSoundToggle() {
  const [on, set] = criticalSound.use();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        onChange={(event) => {
          set(event.target.checked);
          if (event.target.checked) playCriticalBeep();
        }}
        className="h-4 w-4"
      />
      Sound for Critical alerts
    </label>
  );
}

/** While a Critical alert is open the beep repeats, at most this often. */
export const CRITICAL_REPEAT_MS = 30_000;
/** A burst of Critical alerts beeps once. */
const BURST_GAP_MS = 3_000;

/**
 * Mount once for the whole app (the layout): when switched on, beeps on each live Critical alert and again every 30 s
 * while an unacknowledged Critical alert is open.
 */
export function AlertWorkflowCriticalSound() {
  const openCritical = useOpenAlerts().data?.counts.Critical ?? 0;
  const lastBeep = useRef(0);
  const beep = (minGapMs: number) => {
    if (!isCriticalSoundOn() || Date.now() - lastBeep.current < minGapMs) return;
    lastBeep.current = Date.now();
    playCriticalBeep();
  };
  const beepRef = useRef(beep);
  beepRef.current = beep;

  useSocketEvent('showAlert', (alert) => {
    if (alert.alert_type === 'Critical') beep(BURST_GAP_MS);
  });

  const open = openCritical > 0;
  useEffect(() => {
    if (!open) return;
    // Checked every second, so the repeat comes 30 s after the last beep, whatever caused that one.
    const timer = setInterval(() => beepRef.current(CRITICAL_REPEAT_MS), 1000);
    return () => clearInterval(timer);
  }, [open]);

  // Browsers start audio only after a user gesture: the first click or key press on any screen unlocks it.
  useEffect(() => {
    const unlock = () => {
      if (isCriticalSoundOn()) void audioContext()?.resume();
    };
    window.addEventListener('pointerdown', unlock, { once: true });
    window.addEventListener('keydown', unlock, { once: true });
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, []);
  return null;
}
