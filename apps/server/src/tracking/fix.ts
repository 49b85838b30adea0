// One position fix as every protocol hands it to the tracking service, and the checks every fix must pass
// (docs/decisions/011: which fields refuse the fix and which are dropped).
import { HttpError } from '../lib/http-errors';

/** `fall`: a fall detected by the device (OsmAnd `alarm=fall`), judged by the fix rules (decision 064). */
export type DeviceAlarm = 'sos' | 'tamper' | 'fall';

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
  /** When the server received it (ms since the epoch), set by `checkFix`: the start of the fix-to-alert time. */
  arrivedAt?: number;
  /**
   * Placed at a reader by its sighting rather than reported by the device (decision 092): taken only for a tag, so a
   * reader's secret can never move a phone (nor end the violation its own fixes raised).
   */
  fromReader?: boolean;
}

export const KNOTS_TO_METRES_PER_SECOND = 0.514444;
/** How far ahead of the server clock a device time may be (MAX_FUTURE_SECONDS). */
export const DEFAULT_MAX_FUTURE_SECONDS = 300;
/** Earlier than this is a device clock that was never set, not a fix. */
const EARLIEST_FIX = Date.UTC(2000, 0, 1);

/**
 * The measurements a fix may carry besides its position, with the range each must be in. A value outside is a
 * sensor's glitch, not a reason to lose the position: it is dropped (stored as unknown), as Traccar drops a negative
 * speed, and the answer names it. Everything in range also fits the `real` columns.
 */
export const TELEMETRY_RANGES = {
  accuracy: { min: 0, max: 100_000, unit: 'm' },
  speed: { min: 0, max: 500, unit: 'm/s' },
  bearing: { min: 0, max: 360, unit: 'degrees' },
  altitude: { min: -1_000, max: 100_000, unit: 'm' },
  battery: { min: 0, max: 100, unit: '%' },
} as const;
type TelemetryField = keyof typeof TELEMETRY_RANGES;

/** A fix refused before anything is stored; the message is the reason given to the device. */
export class FixRefused extends HttpError {
  /** Traccar answers an unknown device with 400, or 404 on its JSON form. */
  constructor(message: string, statusCode = 400) {
    super(statusCode, message);
    this.name = 'FixRefused';
  }
}

/** The answer for a fix the database refused (its batch's other fixes are stored). */
export const REFUSED_BY_DATABASE = 'The database refused a value of this fix; it was not stored';

/** Plain decimal notation only: `Number()` would also read `0x33`, `0b1`, `Infinity` and the empty string. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
/** ISO 8601 date-time: date, time, optional fraction and zone (none means UTC). */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const TIMESTAMP_FORMAT = 'timestamp must be seconds, milliseconds or an ISO 8601 date-time';

/** A real calendar instant from an ISO date-time, or NaN (2026-02-30 is not read as 2 March). */
function parseIsoDateTime(value: string): number {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  const local = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const check = new Date(local);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59 || second! > 59) return Number.NaN;
  const fraction = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  const zone = m[8]?.toUpperCase();
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * (zone.startsWith('-') ? -1 : 1);
  }
  return local + fraction - offsetMinutes * 60_000;
}

/**
 * Device timestamps come as seconds or milliseconds since the epoch (number or digits) or as an ISO date-time.
 * Absent means "now". Anything else (an empty value too) is refused.
 */
export function parseFixTime(value: unknown, now = new Date()): Date {
  if (value === undefined || value === null) return now;
  let ms: number;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    // Seconds until the year 33658; anything larger is milliseconds.
    ms = n < 1e12 ? n * 1000 : n;
  } else if (typeof value === 'string') {
    ms = parseIsoDateTime(value.trim());
  } else {
    throw new FixRefused(TIMESTAMP_FORMAT);
  }
  const at = new Date(ms);
  if (!Number.isFinite(at.getTime())) throw new FixRefused(TIMESTAMP_FORMAT);
  return at;
}

/** Reads an optional number: absent (undefined or null) is null; anything but a finite decimal number is refused. */
export function optionalNumber(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new FixRefused(`${field} must be a decimal number`);
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
  if (alarms.includes('fall') || alarms.includes('falldown')) return 'fall';
  return null;
}

export interface FixCheckOptions {
  now?: Date;
  maxFutureSeconds?: number;
}

export interface CheckedFix {
  fix: Fix;
  /** One sentence per measurement dropped for being out of range, for the answer to the device. */
  ignored: string[];
}

/**
 * Refuses a position or time out of range (the message names the field) and drops out-of-range measurements.
 * A time more than `maxFutureSeconds` ahead of the server is refused: a newest fix from the future would hide every
 * real one after it.
 */
export function checkFix(fix: Fix, options: FixCheckOptions = {}): CheckedFix {
  const now = options.now ?? new Date();
  const maxFutureSeconds = options.maxFutureSeconds ?? DEFAULT_MAX_FUTURE_SECONDS;
  if (!Number.isFinite(fix.latitude) || fix.latitude < -90 || fix.latitude > 90) {
    throw new FixRefused('latitude must be a number between -90 and 90');
  }
  if (!Number.isFinite(fix.longitude) || fix.longitude < -180 || fix.longitude > 180) {
    throw new FixRefused('longitude must be a number between -180 and 180');
  }
  const at = fix.recordedAt.getTime();
  if (!Number.isFinite(at)) throw new FixRefused('timestamp is not a valid time');
  const ahead = (at - now.getTime()) / 1000;
  if (ahead > maxFutureSeconds) {
    throw new FixRefused(
      `timestamp is ${Math.round(ahead)} s ahead of the server clock (at most ${maxFutureSeconds} s allowed): check the device's clock`,
    );
  }
  if (at < EARLIEST_FIX) throw new FixRefused('timestamp is before the year 2000');
  const checked: Fix = { ...fix, arrivedAt: fix.arrivedAt ?? now.getTime() };
  const ignored: string[] = [];
  for (const field of Object.keys(TELEMETRY_RANGES) as TelemetryField[]) {
    const value = checked[field];
    if (value === undefined || value === null) continue;
    const { min, max, unit } = TELEMETRY_RANGES[field];
    if (Number.isFinite(value) && value >= min && value <= max) continue;
    checked[field] = null;
    ignored.push(`${field} ignored: must be ${min} to ${max} ${unit}`);
  }
  return { fix: checked, ignored };
}
