// What counts as the user's activity for the server's idle timeout (SESSION_IDLE_MINUTES, decision 012): mouse,
// keyboard and touch use in this tab, and the requests they cause. Refetches after live events and polling while
// nobody touches the tab are sent as background requests, so a screen left open does not keep its session alive.

/** A request sent longer than this after the last input in this tab was not caused by the user. */
const USER_CAUSED_WITHIN_MS = 10_000;
/** While the user is active but no request goes out, the server is told so at most this often. */
const SIGNAL_EVERY_MS = 30_000;
const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

// Opening or reloading the page is the user's doing.
let lastInputAt = Date.now();
let lastToldAt = 0;

/** Whether a request sent now is background work rather than something the user did. */
export function isBackgroundRequest(): boolean {
  return Date.now() - lastInputAt > USER_CAUSED_WITHIN_MS;
}

/** A request that counts as activity went out: no separate signal is needed for a while. */
export function activitySent(): void {
  lastToldAt = Date.now();
}

/** Watches input in this tab and calls `signal` (at most every 30 s) while the user is active. Returns the stop. */
export function watchUserActivity(signal: () => void): () => void {
  const onInput = () => {
    lastInputAt = Date.now();
    if (lastInputAt - lastToldAt > SIGNAL_EVERY_MS) {
      lastToldAt = lastInputAt;
      signal();
    }
  };
  for (const event of INPUT_EVENTS) window.addEventListener(event, onInput, { capture: true, passive: true });
  return () => {
    for (const event of INPUT_EVENTS) window.removeEventListener(event, onInput, { capture: true });
  };
}
