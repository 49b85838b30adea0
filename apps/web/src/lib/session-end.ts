// When the session ends, the browser goes to /login and says why (decision 012). The sentence comes from the server
// (its 401 or the socket's `sessionEnded`) and waits in this tab's sessionStorage across the reload to /login: only
// this origin's own script can write it, so no link can put words on the login page.
const STORAGE_KEY = 'session-ended';

/** When the server gave no reason (the token was already unknown to it). */
export const SESSION_ENDED_FALLBACK = 'Your session has ended. Log in again.';

let loggingOut = false;

/** This tab is logging out on purpose: its own session ending needs no explanation. */
export function markLoggingOut(): void {
  loggingOut = true;
}

export function rememberSessionEnd(message: string): void {
  if (loggingOut) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, message);
  } catch {
    // Storage may be disabled; /login then shows no reason.
  }
}

/** Leaves for /login with a full reload, so nothing of what the ended session saw stays in memory. */
export function leaveForLogin(message: string): void {
  if (loggingOut) return;
  rememberSessionEnd(message);
  markLoggingOut();
  window.location.assign('/login');
}

/** Why the last session of this tab ended, if it ended without the user logging out. */
export function sessionEndMessage(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The reason was shown (or a new session began): a reload of /login no longer shows it. Not while this document is
 * leaving for /login (`leaveForLogin`, a logout): the router can mount this document's login page before the reload
 * lands, and forgetting then would take the sentence away from the page the reload brings.
 */
export function forgetSessionEnd(): void {
  if (loggingOut) return;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
