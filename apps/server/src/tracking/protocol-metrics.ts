// How a protocol counts what it receives (decision 059): each request's fixes as received, and as refused when the
// device is answered with a refusal (4xx: bad input, unknown device or wrong secret, throttled). A fix not stored
// because the database is down (503) is neither stored nor refused: the device sends it again.
import { HttpError } from '../lib/http-errors';
import type { Fix } from './fix';
import type { SubmitOutcome } from './pipeline/accept';
import type { FixProtocol, FixSink, TrackingMetrics } from './ports';

export const refusesFix = (error: unknown): boolean => error instanceof HttpError && error.statusCode < 500;

/** Runs one request's work, counting its `count` fixes as received, and as refused when the work refuses them. */
export async function countFixes<T>(
  metrics: TrackingMetrics,
  protocol: FixProtocol,
  count: number,
  work: () => Promise<T>,
): Promise<T> {
  metrics.fixesReceived(protocol, count);
  try {
    return await work();
  } catch (error) {
    if (refusesFix(error)) metrics.fixesRefused(protocol, count);
    throw error;
  }
}

/** Submits one source's fixes and counts those committed under the source's name. */
export async function submitFrom(tracking: FixSink, protocol: FixProtocol, fixes: Fix[]): Promise<SubmitOutcome[]> {
  const outcomes = await tracking.submit(fixes);
  let stored = 0;
  for (const outcome of outcomes) if (outcome === 'stored') stored++;
  if (stored > 0) tracking.metrics.fixesStoredFrom(protocol, stored);
  return outcomes;
}
