// Traccar's JSON position forwarder (forward.type json): the `{ position, device }` object a Traccar server posts for
// every position it decodes, from any of the devices it speaks to, read into our fix and stored through the same path
// as OsmAnd (decision 106). The forwarder's bearer token authenticates it; the device is matched by its unique id.
import { countFixes, submitFrom } from '../../tracking/protocol-metrics';
import { LOW_BATTERY_PERCENT } from '../../tracking/pipeline/plan';
import type { FixSink } from '../../tracking/ports';
import {
  checkFix,
  FixRefused,
  KNOTS_TO_METRES_PER_SECOND,
  optionalNumber,
  parseAlarm,
  parseFixTime,
  REFUSED_BY_DATABASE,
  requiredNumber,
  type Fix,
} from '../../tracking/fix';

type Params = Record<string, unknown>;

const isObject = (value: unknown): value is Params => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Our device ids are at most 100 characters (the devices schema): a longer unique id names none. */
const MAX_UNIQUE_ID = 100;

/** Traccar's `alarm` attribute: comma-separated values, `lowBattery` among them when the device says so. */
const saysLowBattery = (alarm: unknown) => typeof alarm === 'string' && alarm.split(',').some((a) => a.trim() === 'lowBattery');

/**
 * Reads one forwarded position as Traccar's PositionForwarderJson serialises it (Jackson, dates ISO 8601 with their
 * zone, speed in knots, 0 accuracy meaning unknown). Battery is `attributes.batteryLevel` (percent); `battery` is volts
 * and not a level, so it is not read.
 */
export function parseTraccarForward(body: unknown, now = new Date()): Fix {
  if (!isObject(body)) throw new FixRefused('body must be the object Traccar forwards: { position, device }');
  const { position, device } = body;
  if (!isObject(device)) throw new FixRefused('device: must be an object with uniqueId');
  if (!isObject(position)) throw new FixRefused('position: must be an object');
  const uniqueId = typeof device.uniqueId === 'string' ? device.uniqueId.trim() : '';
  if (!uniqueId) throw new FixRefused('device.uniqueId: is required');
  if (uniqueId.length > MAX_UNIQUE_ID) throw new FixRefused(`device.uniqueId: at most ${MAX_UNIQUE_ID} characters`);
  const attributes = isObject(position.attributes) ? position.attributes : {};
  const knots = optionalNumber(position.speed, 'position.speed');
  const accuracy = optionalNumber(position.accuracy, 'position.accuracy');
  const level = optionalNumber(attributes.batteryLevel, 'position.attributes.batteryLevel');
  return {
    deviceId: uniqueId,
    latitude: requiredNumber(position.latitude, 'position.latitude'),
    longitude: requiredNumber(position.longitude, 'position.longitude'),
    recordedAt: parseFixTime(position.fixTime ?? position.deviceTime, now),
    accuracy: accuracy === 0 ? null : accuracy,
    speed: knots === null ? null : knots * KNOTS_TO_METRES_PER_SECOND,
    bearing: optionalNumber(position.course, 'position.course'),
    altitude: optionalNumber(position.altitude, 'position.altitude'),
    // The device's own word that its battery is low raises our low-battery alert even without a level.
    battery: level ?? (saysLowBattery(attributes.alarm) ? LOW_BATTERY_PERCENT - 1 : null),
    alarm: parseAlarm(attributes.alarm),
  };
}

/** Stores one forwarded position and answers after the commit; counted as `traccar` in /metrics. */
export function ingestTraccar(tracking: FixSink, body: unknown): Promise<{ message: string }> {
  return countFixes(tracking.metrics, 'traccar', 1, () => storeTraccar(tracking, body));
}

async function storeTraccar(tracking: FixSink, body: unknown): Promise<{ message: string }> {
  const now = new Date();
  const fix = parseTraccarForward(body, now);
  const device = tracking.registry.get(fix.deviceId);
  if (!device) throw new FixRefused(`Unknown device ${fix.deviceId}`, 404);
  // A tag has no position of its own: only the readers that see it place it (decision 092).
  if (device.kind !== 'phone') throw new FixRefused(`device.uniqueId: ${fix.deviceId} is a tag, placed only by readers`, 409);
  const checked = checkFix(fix, { now, maxFutureSeconds: tracking.maxFutureSeconds });
  const [outcome] = await submitFrom(tracking, 'traccar', [checked.fix]);
  // Removed while its fix waited: answered as any unknown device.
  if (outcome === 'refused') throw new FixRefused(`Unknown device ${fix.deviceId}`, 404);
  if (outcome === 'invalid') throw new FixRefused(REFUSED_BY_DATABASE);
  const message = outcome === 'duplicate' ? 'Duplicate fix: already stored' : 'Stored';
  return { message: checked.ignored.length ? `${message}; ${checked.ignored.join('; ')}` : message };
}
