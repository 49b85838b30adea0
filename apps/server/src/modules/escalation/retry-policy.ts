// When a failed escalation is tried again: doubling delays from ESCALATION_RETRY_SECONDS, at most 10 minutes apart,
// until ESCALATION_RETRY_FOR_SECONDS after the first try; then it has failed (decision 060).
export const MAX_RETRY_DELAY_MS = 10 * 60_000;
/** A bound besides the time window: a tiny first delay must not make hundreds of tries. */
export const MAX_ATTEMPTS = 30;

export interface RetryPolicy {
  firstDelayMs: number;
  retryForMs: number;
}

/** The next try's time after `attempts` failed tries, or null: give up. */
export function nextAttemptAt(policy: RetryPolicy, attempts: number, firstTriedAt: Date, now: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const delay = Math.min(policy.firstDelayMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  const next = new Date(now.getTime() + delay);
  return next.getTime() - firstTriedAt.getTime() > policy.retryForMs ? null : next;
}
