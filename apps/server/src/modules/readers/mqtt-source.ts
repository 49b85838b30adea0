// The indoor readers' MQTT subscription as a tracking fix source (decision 067): MQTT_URL's broker, the topic of
// every reader message format (ours on prison/readers/{reader_id}/sightings, the gateways' on theirs) as shared
// subscriptions, so the processes of a cluster each take a share and none stores a sighting twice. Each message is
// read on its own, bounded, and never awaited by the client loop.
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import { MAX_SIGHTING_PAYLOAD_BYTES, type SightingsResult } from '@prison/shared';
import { HttpError } from '../../lib/http-errors';
import type { FixSink, ListeningFixSource } from '../../tracking/ports';
import { SIGHTING_DECODERS, type SightingDecoder } from './formats';
import type { ReaderRuntime } from './reader-runtime';
import { readerProtocol, SightingIntake } from './sighting-intake';

const DECODERS = Object.values(SIGHTING_DECODERS);
/** Every process of a cluster subscribes in this group: the broker hands each message to one of them. */
const SHARED_TOPICS = Object.fromEntries(DECODERS.map((decoder) => [`$share/prison/${decoder.topicFilter}`, { qos: 1 as const }]));

/** The format whose topic this is, and the reader it names. */
function readTopic(topic: string): { decoder: SightingDecoder; readerId: string } | null {
  for (const decoder of DECODERS) {
    const readerId = decoder.readerOf(topic);
    if (readerId) return { decoder, readerId };
  }
  return null;
}

export function createMqttFixSource(app: FastifyInstance, runtime: ReaderRuntime): ListeningFixSource {
  const url = app.config.MQTT_URL;
  const log = app.log.child({ module: 'readers' });
  let client: MqttClient | null = null;
  let subscribed = false;
  let lastError = 0;

  const onMessage = (intake: SightingIntake, topic: string, payload: Buffer) => {
    const named = readTopic(topic);
    const protocol = readerProtocol(named?.decoder.format ?? 'prison', 'mqtt');
    const readerId = named?.readerId ?? null;
    if (!named || payload.length > MAX_SIGHTING_PAYLOAD_BYTES) return intake.refuse(protocol, readerId, 1);
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return intake.refuse(protocol, readerId, 1);
    }
    const decoded = named.decoder.decode(body);
    if (!decoded) return intake.refuse(protocol, readerId, 1);
    let stored: Promise<SightingsResult>;
    if (decoded.secret !== undefined) stored = intake.take(protocol, named.readerId, decoded.secret, decoded.tags);
    else {
      // A gateway format carries no secret: the broker authenticated the gateway; the reader must be registered in it.
      const reader = runtime.registry.ofFormat(named.readerId, named.decoder.format);
      if (!reader) return intake.refuse(protocol, readerId, decoded.tags.length);
      stored = intake.place(protocol, reader, decoded.tags);
    }
    stored.catch((error: unknown) => {
      // Refusals are counted by the intake; anything else (the database) is logged, at most once a second.
      if (error instanceof HttpError) return;
      if (Date.now() - lastError > 1000) log.error({ err: error }, 'MQTT sightings not stored');
      lastError = Date.now();
    });
  };

  return {
    open: async (tracking: FixSink) => {
      if (!url) return;
      const intake = new SightingIntake(tracking, runtime.registry, runtime.resolver);
      // Reconnects on its own: a broker down at start is joined when it comes up (as Redis is, decision 056).
      client = mqtt.connect(url, { clientId: `prison-${app.cluster.instance}`, reconnectPeriod: 1000, clean: true });
      client.on('connect', () => {
        client?.subscribe(SHARED_TOPICS, (error) => {
          subscribed = !error;
          if (error) log.error({ err: error }, 'MQTT subscription refused');
          else log.info('indoor readers: subscribed to MQTT sightings');
        });
      });
      client.on('close', () => (subscribed = false));
      client.on('error', (error) => {
        if (Date.now() - lastError > 5000) log.warn({ err: error }, 'MQTT broker unreachable');
        lastError = Date.now();
      });
      client.on('message', (topic, payload) => onMessage(intake, topic, payload));
    },
    port: () => null,
    link: () => (url ? { name: 'mqtt', state: subscribed ? 'up' : 'down' } : null),
    close: async () => {
      await client?.endAsync();
      client = null;
      subscribed = false;
    },
    stop: () => undefined,
  };
}
