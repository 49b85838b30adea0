// Our own reader message: { secret, tags: [{ id, rssi, at }] } on prison/readers/{reader_id}/sightings.
import { mqttSightings, READER_FORMAT_TOPICS } from '@prison/shared';
import type { SightingDecoder } from './sighting-decoder';

const TOPIC = /^prison\/readers\/([^/]{1,100})\/sightings$/;

export const prisonFormat: SightingDecoder = {
  format: 'prison',
  topicFilter: READER_FORMAT_TOPICS.prison,
  readerOf: (topic) => TOPIC.exec(topic)?.[1] ?? null,
  decode: (body) => {
    const parsed = mqttSightings.safeParse(body);
    return parsed.success ? { secret: parsed.data.secret, tags: parsed.data.tags } : null;
  },
};
