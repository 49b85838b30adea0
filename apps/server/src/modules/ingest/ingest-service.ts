// Device ingestion over HTTP: the OsmAnd protocol of the Traccar Client app (query, form or JSON) and the gateway
// batch. Each request authenticates its device(s) (decision 038), refuses bad fixes with a reason, and answers after the commit.
import type { BatchPositionsResponse, FixOutcome } from '@prison/shared';
import { DEVICE_REFUSED_MESSAGE } from '../../tracking/device-registry';
import { countFixes, submitFrom } from '../../tracking/protocol-metrics';
import type { FixSink } from '../../tracking/ports';
import type { DeviceAuthThrottle } from './device-auth-throttle';
import {
  checkFix,
  FixRefused,
  REFUSED_BY_DATABASE,
  KNOTS_TO_METRES_PER_SECOND,
  optionalNumber,
  parseAlarm,
  parseFixTime,
  requiredNumber,
  type Fix,
} from '../../tracking/fix';

type Params = Record<string, unknown>;

const isObject = (value: unknown): value is Params => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

export interface OsmandRequest {
  deviceId: string;
  secret: string | undefined;
  /** The JSON form answers an unknown device with 404, the query form with 400 (as Traccar does). */
  json: boolean;
  fixes: Fix[];
}

/** The JSON form (docs/CLIENT-CONTRACT.md): speed in m/s, battery level 0..1. One location or a list. */
function parseJsonLocation(deviceId: string, location: unknown, now: Date): Fix {
  if (!isObject(location)) throw new FixRefused('location must be an object');
  const coords = isObject(location.coords) ? location.coords : {};
  const battery = isObject(location.battery) ? optionalNumber(location.battery.level, 'battery.level') : null;
  const extras = isObject(location.extras) ? location.extras : {};
  return {
    deviceId,
    latitude: requiredNumber(coords.latitude, 'location.coords.latitude'),
    longitude: requiredNumber(coords.longitude, 'location.coords.longitude'),
    recordedAt: parseFixTime(location.timestamp, now),
    accuracy: optionalNumber(coords.accuracy, 'accuracy'),
    speed: optionalNumber(coords.speed, 'speed'),
    bearing: optionalNumber(coords.heading, 'heading'),
    altitude: optionalNumber(coords.altitude, 'altitude'),
    // The level is a fraction; a device that sends a percentage is understood too.
    battery: battery === null ? null : battery <= 1 ? Math.round(battery * 1000) / 10 : battery,
    alarm: parseAlarm(location.alarm ?? extras.alarm ?? location.event),
  };
}

/** Reads an OsmAnd request: GET query, form POST (fields in the body or the query) or the JSON form. */
export function parseOsmand(query: Params, body: unknown, now = new Date()): OsmandRequest {
  // A form's `location` is the text "lat,lon"; the JSON form's is an object (or a list of them).
  if (isObject(body) && (body.device_id !== undefined || (typeof body.location === 'object' && body.location !== null))) {
    const deviceId = text(body.device_id) ?? text(query.id) ?? text(query.deviceid);
    if (!deviceId) throw new FixRefused('device_id is required');
    const locations = Array.isArray(body.location) ? body.location : [body.location];
    if (locations.length === 0) throw new FixRefused('location is required');
    return {
      deviceId,
      secret: text(body.secret) ?? text(body.key) ?? text(query.secret) ?? text(query.key),
      json: true,
      fixes: locations.map((location) => parseJsonLocation(deviceId, location, now)),
    };
  }
  const params: Params = { ...query, ...(isObject(body) ? body : {}) };
  const deviceId = text(params.id) ?? text(params.deviceid);
  if (!deviceId) throw new FixRefused('id is required');
  let latitude = params.lat;
  let longitude = params.lon;
  if ((latitude === undefined || longitude === undefined) && typeof params.location === 'string') {
    [latitude, longitude] = params.location.split(',').map((part) => part.trim());
  }
  const knots = optionalNumber(params.speed, 'speed');
  return {
    deviceId,
    secret: text(params.secret) ?? text(params.key),
    json: false,
    fixes: [
      {
        deviceId,
        latitude: requiredNumber(latitude, 'lat'),
        longitude: requiredNumber(longitude, 'lon'),
        recordedAt: parseFixTime(params.timestamp, now),
        accuracy: optionalNumber(params.accuracy ?? params.hdop, 'accuracy'),
        speed: knots === null ? null : knots * KNOTS_TO_METRES_PER_SECOND,
        bearing: optionalNumber(params.bearing ?? params.heading, 'bearing'),
        altitude: optionalNumber(params.altitude, 'altitude'),
        battery: optionalNumber(params.batt, 'batt'),
        alarm: parseAlarm(params.alarm),
      },
    ],
  };
}

/** Where an OsmAnd request came from, for the per-address throttle of credential failures (decision 038). */
export interface OsmandClient {
  address: string;
  throttle: DeviceAuthThrottle;
}

/**
 * OsmAnd: the device must send its secret (`secret` or `key`) when DEVICE_SECRET_REQUIRED is on or the device is
 * marked so; otherwise the registered id is the credential, as Traccar has it (decisions 006 and 038).
 */
export function ingestOsmand(tracking: FixSink, query: Params, body: unknown, client?: OsmandClient): Promise<{ message: string }> {
  // A JSON list of locations is that many fixes; anything else is one, readable or not (decision 059).
  const fixes = isObject(body) && Array.isArray(body.location) ? Math.max(1, body.location.length) : 1;
  return countFixes(tracking.metrics, 'osmand', fixes, () => storeOsmand(tracking, query, body, client));
}

async function storeOsmand(tracking: FixSink, query: Params, body: unknown, client?: OsmandClient): Promise<{ message: string }> {
  const now = new Date();
  const request = parseOsmand(query, body, now);
  try {
    tracking.registry.authenticate(request.deviceId, request.secret, { secretRequired: tracking.deviceSecretRequired, unknownStatus: request.json ? 404 : 400 });
  } catch (error) {
    if (client && error instanceof FixRefused) throw client.throttle.failed(client.address, request.deviceId, error);
    throw error;
  }
  const checked = request.fixes.map((fix) => checkFix(fix, { now, maxFutureSeconds: tracking.maxFutureSeconds }));
  const outcomes = await submitFrom(tracking, 'osmand', checked.map((c) => c.fix));
  // Removed while its fixes waited: answered as any unknown device.
  if (outcomes.includes('refused')) {
    throw tracking.deviceSecretRequired ? new FixRefused(DEVICE_REFUSED_MESSAGE, 401) : new FixRefused(`Unknown device ${request.deviceId}`, request.json ? 404 : 400);
  }
  if (outcomes.includes('invalid')) throw new FixRefused(REFUSED_BY_DATABASE);
  const message = outcomes.every((o) => o === 'duplicate') ? 'Duplicate fix: already stored' : 'Stored';
  const ignored = [...new Set(checked.flatMap((c) => c.ignored))];
  return { message: ignored.length ? `${message}; ${ignored.join('; ')}` : message };
}

function parseBatchPosition(item: unknown, now: Date): { fix: Fix; secret: string } {
  if (!isObject(item)) throw new FixRefused('each position must be an object');
  const deviceId = text(item.device_id);
  if (!deviceId) throw new FixRefused('device_id is required');
  // A missing secret is refused by `authenticate`, in the same words as a wrong one or an unknown id.
  const secret = text(item.secret) ?? '';
  return {
    secret,
    fix: {
      deviceId,
      latitude: requiredNumber(item.latitude, 'latitude'),
      longitude: requiredNumber(item.longitude, 'longitude'),
      recordedAt: parseFixTime(item.timestamp, now),
      accuracy: optionalNumber(item.accuracy, 'accuracy'),
      speed: optionalNumber(item.speed, 'speed'),
      bearing: optionalNumber(item.bearing, 'bearing'),
      altitude: optionalNumber(item.altitude, 'altitude'),
      battery: optionalNumber(item.battery, 'battery'),
      alarm: parseAlarm(item.alarm),
    },
  };
}

/** A gateway's batch: each fix authenticated and checked on its own; every valid one is stored in one transaction. */
export async function ingestBatch(tracking: FixSink, items: unknown[]): Promise<BatchPositionsResponse> {
  const now = new Date();
  tracking.metrics.fixesReceived('batch', items.length);
  const results: BatchPositionsResponse['results'] = [];
  const valid: { index: number; fix: Fix; ignored: string[] }[] = [];
  for (const [index, item] of items.entries()) {
    try {
      const { fix, secret } = parseBatchPosition(item, now);
      tracking.registry.authenticate(fix.deviceId, secret, { secretRequired: true });
      valid.push({ index, ...checkFix(fix, { now, maxFutureSeconds: tracking.maxFutureSeconds }) });
    } catch (error) {
      if (!(error instanceof FixRefused)) throw error;
      results[index] = { index, outcome: 'refused', message: error.message };
    }
  }
  const outcomes = await submitFrom(tracking, 'batch', valid.map((v) => v.fix));
  valid.forEach(({ index, ignored }, i) => {
    const outcome = outcomes[i]!;
    if (outcome === 'refused') results[index] = { index, outcome, message: DEVICE_REFUSED_MESSAGE };
    else if (outcome === 'invalid') results[index] = { index, outcome: 'refused', message: REFUSED_BY_DATABASE };
    else results[index] = ignored.length ? { index, outcome, message: ignored.join('; ') } : { index, outcome };
  });
  const tally = (outcome: FixOutcome) => results.filter((r) => r.outcome === outcome).length;
  const refused = tally('refused');
  if (refused > 0) tracking.metrics.fixesRefused('batch', refused);
  return { stored: tally('stored'), duplicates: tally('duplicate'), refused, results };
}
