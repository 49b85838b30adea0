// OpenMQTTGateway and Theengs Gateway: one JSON object per advertisement, { "id": "AA:BB:..", "rssi": -70, ... },
// on {prefix}/{gateway name}/BTtoMQTT/{tag MAC}. The gateway name is the reader id; the message has no time of its
// own, so the sighting is placed at its arrival. Over HTTP a list of such objects is taken as one message.
import { READER_FORMAT_TOPICS } from '@prison/shared';
import { sightingOf, withinBound, type SightingDecoder } from './sighting-decoder';

const TOPIC = /^[^/]+\/([^/]{1,100})\/BTtoMQTT\/[^/]+$/;

export const openMqttGatewayFormat: SightingDecoder = {
  format: 'openmqttgateway',
  topicFilter: READER_FORMAT_TOPICS.openmqttgateway,
  readerOf: (topic) => TOPIC.exec(topic)?.[1] ?? null,
  decode: (body) => {
    const entries = Array.isArray(body) ? body : [body];
    const tags = entries.map((entry) => sightingOf(entry, 'id'));
    if (tags.some((tag) => tag === null)) return null;
    const bounded = withinBound(tags as NonNullable<(typeof tags)[number]>[]);
    return bounded ? { tags: bounded } : null;
  },
};
