// Minew G1 / MG3 BLE gateways: each upload is a JSON array of what one scan heard, the gateway's own entry
// ({ "type": "Gateway", "mac", "gatewayFree", "gatewayLoad" }) among the tags' ({ "timestamp": ISO 8601, "type":
// "iBeacon" | "Unknown" | ..., "mac": "AC233FC07DA5", "bleName", "rssi", "rawData", ... }), on /gw/{gateway MAC}/status.
// The gateway MAC in the topic is the reader id; each tag's own timestamp is the sighting's instant.
import { READER_FORMAT_TOPICS, type SightingTag } from '@prison/shared';
import { isObject, sightingOf, withinBound, type SightingDecoder } from './sighting-decoder';

const TOPIC = /^\/gw\/([^/]{1,100})\/status$/;

export const minewFormat: SightingDecoder = {
  format: 'minew',
  topicFilter: READER_FORMAT_TOPICS.minew,
  readerOf: (topic) => TOPIC.exec(topic)?.[1] ?? null,
  decode: (body) => {
    if (!Array.isArray(body)) return null;
    const tags: SightingTag[] = [];
    for (const entry of body) {
      // The gateway's heartbeat: it says the reader is alive, and sees no tag.
      if (isObject(entry) && entry.type === 'Gateway') continue;
      const tag = sightingOf(entry, 'mac', 'timestamp');
      if (!tag) return null;
      tags.push(tag);
    }
    const bounded = withinBound(tags);
    return bounded ? { tags: bounded } : null;
  },
};
