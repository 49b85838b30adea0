// Pozyx's MQTT positioning stream: each message is a JSON array of tag updates, { "version", "tagId": "30331",
// "timestamp": 1615984968.807 (epoch seconds), "success": true, "data": { "coordinates": { "x", "y", "z" } (mm),
// "metrics": {...}, ... } }; an update whose position could not be computed has success false and no coordinates.
// The stream reports no accuracy figure: RTLS_ACCURACY_M is stored with its fixes.
import { MAX_SIGHTING_TAGS } from '@prison/shared';
import type { PlanPosition, PositionDecoder } from './position-decoder';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
/** A plan coordinate beyond 100 km is no position inside a prison. */
const MAX_MM = 100_000_000;

export const pozyxFormat: PositionDecoder = {
  format: 'pozyx',
  decode(body) {
    if (!Array.isArray(body) || body.length > MAX_SIGHTING_TAGS) return null;
    const positions: PlanPosition[] = [];
    let withoutPosition = 0;
    for (const update of body) {
      if (!isObject(update) || typeof update.tagId !== 'string' || update.tagId.length === 0 || update.tagId.length > 100) return null;
      if (update.success === false) {
        withoutPosition++;
        continue;
      }
      const coordinates = isObject(update.data) && isObject(update.data.coordinates) ? update.data.coordinates : null;
      const { x, y } = coordinates ?? {};
      if (!finite(x) || !finite(y) || Math.abs(x) > MAX_MM || Math.abs(y) > MAX_MM) return null;
      const at = finite(update.timestamp) ? update.timestamp : undefined;
      positions.push({ tagId: update.tagId, xM: x / 1000, yM: y / 1000, ...(at === undefined ? {} : { at }) });
    }
    return { positions, withoutPosition };
  },
};
