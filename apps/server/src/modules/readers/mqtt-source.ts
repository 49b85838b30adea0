// The indoor readers' MQTT subscription as a tracking fix source (decision 067): MQTT_URL's broker, topic
// prison/readers/{reader_id}/sightings as a shared subscription, so the processes of a cluster each take a share
// and none stores a sighting twice. Each message is read on its own, bounded, and never awaited by the client loop.
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import { MAX_SIGHTING_PAYLOAD_BYTES, mqttSightings, READER_TOPIC_PATTERN } from '@prison/shared';
import { HttpError } from '../../lib/http-errors';
import type { FixSink, ListeningFixSource } from '../../tracking/ports';
import type { ReaderRuntime } from './reader-runtime';
import { SightingIntake } from './sighting-intake';

/** Every process of a cluster subscribes in this group: the broker hands each message to one of them. */
export const SHARED_TOPIC = `$share/prison/${READER_TOPIC_PATTERN}`;
const TOPIC = /^prison\/readers\/([^/]{1,100})\/sightings$/;

export function createMqttFixSource(app: FastifyInstance, runtime: ReaderRuntime): ListeningFixSource {
  const url = app.config.MQTT_URL;
  const log = app.log.child({ module: 'readers' });
  let client: MqttClient | null = null;
  let subscribed = false;
  let lastError = 0;

  const onMessage = (intake: SightingIntake, topic: string, payload: Buffer) => {
    const readerId = TOPIC.exec(topic)?.[1] ?? null;
    if (!readerId || payload.length > MAX_SIGHTING_PAYLOAD_BYTES) return intake.refuse('mqtt', readerId, 1);
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return intake.refuse('mqtt', readerId, 1);
    }
    const parsed = mqttSightings.safeParse(body);
    if (!parsed.success) return intake.refuse('mqtt', readerId, 1);
    intake.take('mqtt', readerId, parsed.data.secret, parsed.data.tags).catch((error: unknown) => {
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
        client?.subscribe(SHARED_TOPIC, { qos: 1 }, (error) => {
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
