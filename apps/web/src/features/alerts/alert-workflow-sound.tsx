// An optional beep for Critical alerts, switched per browser (localStorage). Web Audio makes the sound: no file.
import { useEffect, useState } from 'react';
import { useSocketEvent } from '../../lib/realtime';

const STORAGE_KEY = 'prison.criticalAlertSound';
const CHANGE_EVENT = 'critical-alert-sound-change';

export function isCriticalSoundOn(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

function setCriticalSound(on: boolean) {
  try {
    window.localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the switch simply does not persist.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

let audio: AudioContext | null = null;

/** Three short 880 Hz beeps, about 0.6 s in all. */
export function playCriticalBeep() {
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  audio ??= new Context();
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

function useCriticalSoundSetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(isCriticalSoundOn);
  useEffect(() => {
    const sync = () => setOn(isCriticalSoundOn());
    window.addEventListener(CHANGE_EVENT, sync);
    window.addEventListener('storage', sync);
    return () => {
      window.removeEventListener(CHANGE_EVENT, sync);
      window.removeEventListener('storage', sync);
    };
  }, []);
  return [on, setCriticalSound];
}

/** The switch, on the alerts screen. The first click also unlocks audio, which browsers allow only after a gesture. */
export function AlertWorkflowSoundToggle() {
  const [on, set] = useCriticalSoundSetting();
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

/** Mount once for the whole app (e.g. in the layout): beeps on each live Critical alert when switched on. */
export function AlertWorkflowCriticalSound() {
  useSocketEvent('showAlert', (alert) => {
    if (alert.alert_type === 'Critical' && isCriticalSoundOn()) playCriticalBeep();
  });
  return null;
}
