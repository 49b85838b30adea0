// One position fix as every protocol hands it to the tracking service, and the checks every fix must pass.
import { HttpError } from '../lib/http-errors';

export type DeviceAlarm = 'sos' | 'tamper';

export interface Fix {
  deviceId: string;
  latitude: number;
  longitude: number;
  /** Device time of the fix (received time when the device sent none). */
  recordedAt: Date;
  accuracy?: number | null;
  /** Metres per second (OsmAnd's knots are converted on the way in). */
  speed?: number | null;
  bearing?: number | null;
  altitude?: number | null;
  /** Percent, 0 to 100. */
  battery?: number | null;
  alarm?: DeviceAlarm | null;
}

export const KNOTS_TO_METRES_PER_SECOND = 0.514444;
const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;
/** Earlier than this is a device clock that was never set, not a fix. */
const EARLIEST_FIX = Date.UTC(2000, 0, 1);

/** A fix refused before anything is stored; the message is the reason given to the device. */
export class FixRefused extends HttpError {
  /** Traccar answers an unknown device with 400, or 404 on its JSON form. */
  constructor(message: string, statusCode = 400) {
    super(statusCode, message);
    this.name = 'FixRefused';
  }
}

/**
 * Device timestamps come as seconds or milliseconds since the epoch (number or digits) or as an ISO string.
 * Absent means "now". Anything else is refused.
 */
export function parseFixTime(value: unknown, now = new Date()): Date {
  if (value === undefined || value === null || value === '') return now;
  let ms: number;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    // Seconds until the year 33658; anything larger is milliseconds.
    ms = n < 1e12 ? n * 1000 : n;
  } else if (typeof value === 'string') {
    ms = Date.parse(value);
  } else {
    throw new FixRefused('timestamp must be seconds, milliseconds or an ISO date-time');
  }
  if (!Number.isFinite(ms)) throw new FixRefused('timestamp must be seconds, milliseconds or an ISO date-time');
  return new Date(ms);
}

/** Reads an optional number; refuses text that is not one. */
export function optionalNumber(value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new FixRefused(`${field} must be a number`);
  return n;
}

export function requiredNumber(value: unknown, field: string): number {
  const n = optionalNumber(value, field);
  if (n === null) throw new FixRefused(`${field} is required`);
  return n;
}

export function parseAlarm(value: unknown): DeviceAlarm | null {
  if (typeof value !== 'string' || !value) return null;
  // Traccar sends comma-separated alarms; the ones that matter for a prisoner monitor are sos and tamper.
  const alarms = value.toLowerCase().split(',').map((a) => a.trim());
  if (alarms.includes('sos')) return 'sos';
  if (alarms.some((a) => a === 'tamper' || a === 'tampering' || a === 'removing')) return 'tamper';
  return null;
}

/** Refuses coordinates out of range or not finite, and a time more than a day ahead. */
export function checkFix(fix: Fix, now = new Date()): Fix {
  if (!Number.isFinite(fix.latitude) || fix.latitude < -90 || fix.latitude > 90) {
    throw new FixRefused('latitude must be a number between -90 and 90');
  }
  if (!Number.isFinite(fix.longitude) || fix.longitude < -180 || fix.longitude > 180) {
    throw new FixRefused('longitude must be a number between -180 and 180');
  }
  const at = fix.recordedAt.getTime();
  if (!Number.isFinite(at)) throw new FixRefused('timestamp is not a valid time');
  if (at > now.getTime() + MAX_FUTURE_MS) throw new FixRefused('timestamp is more than a day in the future');
  if (at < EARLIEST_FIX) throw new FixRefused('timestamp is before the year 2000');
  if (fix.battery != null && (fix.battery < 0 || fix.battery > 100)) throw new FixRefused('battery must be a percentage between 0 and 100');
  return fix;
}
