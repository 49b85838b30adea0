// A beep for Critical alerts, on or off per account (decision 105: off by default for the roles that cannot act on
// one). Web Audio makes the sound: no file, so the CSP's media-src is not involved. Browsers start audio only after a
// gesture on the page: while this one refuses it, the top bar says so with a one-click "Turn sound on".
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/ui/button';
import { useSocketEvent } from '../../lib/realtime';
import { useOpenAlerts } from './api/open-alerts';
import { useCriticalSoundSetting, useSetCriticalSound } from './api/critical-sound';

let audio: AudioContext | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function audioContext(): AudioContext | null {
  if (audio) return audio;
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  audio = new Context();
  audio.addEventListener('statechange', notify);
  return audio;
}

/** Asks the browser to let the sound play; after a reload it refuses until a click or key press on the page. */
function unlockAudio() {
  const context = audioContext();
  notify();
  void context?.resume().then(notify, notify);
}

/** Whether the browser holds the sound back (suspended until a gesture); false where Web Audio is missing. */
function useAudioBlocked(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => audio !== null && audio.state === 'suspended',
  );
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

/** The account's switch, on the alerts screen. Switching it on is a click, which also lets the browser play it. */
export function AlertWorkflowSoundToggle() {
  const setting = useCriticalSoundSetting();
  const set = useSetCriticalSound();
  // Shown at once, in the same render as the click: the mutation's own pending state arrives a tick later, and a
  // controlled checkbox would meanwhile snap back to the stored value.
  const [asked, setAsked] = useState<boolean | null>(null);
  const on = asked ?? (setting.data?.on ?? false);
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        disabled={!setting.data || set.isPending}
        onChange={(event) => {
          setAsked(event.target.checked);
          set.mutate(event.target.checked, { onSettled: () => setAsked(null) });
          if (event.target.checked) playCriticalBeep();
        }}
        className="h-4 w-4"
      />
      Sound for Critical alerts
    </label>
  );
}

/**
 * The top bar's notice while the account's sound is on and the browser holds it back (after a reload, before any
 * click): otherwise a Critical would beep for nobody with nothing on screen saying so. Its button is the gesture.
 */
export function SoundBlockedNotice() {
  const on = useCriticalSoundSetting().data?.on ?? false;
  const blocked = useAudioBlocked();
  // A browser that allows the sound starts it within milliseconds: only a refusal that lasts is shown.
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (on) unlockAudio();
  }, [on]);
  useEffect(() => {
    setLasting(false);
    if (!blocked) return;
    const timer = setTimeout(() => setLasting(true), BLOCKED_AFTER_MS);
    return () => clearTimeout(timer);
  }, [blocked]);
  if (!on || !blocked || !lasting) return null;
  return (
    <span
      className="flex items-center gap-2 rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-slate-950"
      role="status"
      title="The browser is blocking the Critical alert sound"
      data-testid="sound-blocked"
    >
      <span className="sr-only">The browser is blocking the Critical alert sound</span>
      <span aria-hidden="true">Sound blocked</span>
      <Button size="sm" variant="secondary" onClick={() => playCriticalBeep()}>
        Turn sound on
      </Button>
    </span>
  );
}

/** How long the browser must hold the sound back before the top bar says so. */
const BLOCKED_AFTER_MS = 1_500;

/** While a Critical alert is open the beep repeats, at most this often. */
export const CRITICAL_REPEAT_MS = 30_000;
/** A burst of Critical alerts beeps once. */
const BURST_GAP_MS = 3_000;

/**
 * Mount once for the whole app (the layout): when the account's sound is on, beeps on each live Critical alert and
 * again every 30 s while an unacknowledged Critical alert is open.
 */
export function AlertWorkflowCriticalSound() {
  const openCritical = useOpenAlerts().data?.counts.Critical ?? 0;
  const soundOn = useCriticalSoundSetting().data?.on ?? false;
  const lastBeep = useRef(0);
  const beep = (minGapMs: number) => {
    if (!soundOn || Date.now() - lastBeep.current < minGapMs) return;
    lastBeep.current = Date.now();
    playCriticalBeep();
  };
  const beepRef = useRef(beep);
  beepRef.current = beep;

  useSocketEvent('showAlert', (alert) => {
    if (alert.alert_type === 'critical') beep(BURST_GAP_MS);
  });

  const open = openCritical > 0;
  useEffect(() => {
    if (!open) return;
    // Checked every second, so the repeat comes 30 s after the last beep, whatever caused that one.
    const timer = setInterval(() => beepRef.current(CRITICAL_REPEAT_MS), 1000);
    return () => clearInterval(timer);
  }, [open]);

  // The first click or key press on any screen lets the browser play the sound.
  useEffect(() => {
    if (!soundOn) return;
    window.addEventListener('pointerdown', unlockAudio, { once: true });
    window.addEventListener('keydown', unlockAudio, { once: true });
    return () => {
      window.removeEventListener('pointerdown', unlockAudio);
      window.removeEventListener('keydown', unlockAudio);
    };
  }, [soundOn]);
  return null;
}
