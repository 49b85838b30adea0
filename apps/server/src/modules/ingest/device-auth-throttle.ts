// Device credential failures on the OsmAnd protocol (its port and /api/v1/ingest/osmand), per client address
// (decision 038): past DEVICE_AUTH_FAILURES_PER_MINUTE failures in a minute, an address's failures answer 429 until
// its minute ends. A request with the right credentials is still taken from that address: trackers behind one NAT or
// proxy with a guesser must not be silenced. Failures are logged, at most one line per kind per 10 s.
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/http-errors';
import { PerKeyQuota } from '../../lib/per-key-quota';
import { RateLimitedLog } from '../../lib/rate-limited-log';

export const DEVICE_THROTTLED_MESSAGE = 'Too many refused device credentials from this address; try again later';

/** A 429 that tells the device when to come back (`Retry-After`). */
export class DeviceFailuresThrottled extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, DEVICE_THROTTLED_MESSAGE);
  }
}

export class DeviceAuthThrottle {
  private readonly quota: PerKeyQuota;
  private readonly log: RateLimitedLog;

  constructor(maxFailuresPerMinute: number, log: Pick<FastifyBaseLogger, 'warn'>) {
    this.quota = new PerKeyQuota(maxFailuresPerMinute, 60_000);
    // A refused device is worth a warning, not an error; the bounded log only knows one level.
    this.log = new RateLimitedLog({ error: (fields: object, message: string) => log.warn(fields, message) } as Pick<FastifyBaseLogger, 'error'>);
  }

  /**
   * Counts a credential failure of `address` and answers what to throw: the refusal itself, or a 429 once the
   * address has used up its failures for the minute.
   */
  failed(address: string, deviceId: string, refusal: HttpError): HttpError {
    // Attacker-chosen text: bounded before it reaches the log.
    const fields = { address, deviceId: deviceId.slice(0, 100), status: refusal.statusCode };
    if (this.quota.take(address)) {
      this.log.error('device credentials refused on the OsmAnd protocol', fields);
      return refusal;
    }
    this.log.error('device credential failures throttled on the OsmAnd protocol', fields);
    return new DeviceFailuresThrottled(Math.max(1, this.quota.secondsUntilReset(address)));
  }

  stop(): void {
    this.log.stop();
  }
}
