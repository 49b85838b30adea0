// The RTLS as a tracking fix source: with RTLS_FORMAT and MQTT_URL set, the vendor's position topic on the site's
// broker as a shared subscription (one process of a cluster takes each message), each message decoded by its format,
// placed through the default site plan (re-read every few seconds, so a plan placed again is used) and stored.
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import { MAX_SIGHTING_PAYLOAD_BYTES } from '@prison/shared';
import type { FixSink, ListeningFixSource } from '../../tracking/ports';
import { listPlans } from '../site-plans/site-plan-service';
import { PlanPlacement } from './plan-placement';
import type { PositionDecoder } from './position-decoder';
import { pozyxFormat } from './pozyx-format';
import { RtlsIntake } from './rtls-intake';

const RTLS_DECODERS: Record<string, PositionDecoder> = { pozyx: pozyxFormat };
const PLAN_REFRESH_MS = 10_000;

export function createRtlsFixSource(app: FastifyInstance): ListeningFixSource {
  const { MQTT_URL: url, RTLS_FORMAT: format, RTLS_TOPIC: topic, RTLS_PLAN_ORIGIN: origin, RTLS_ACCURACY_M: accuracyM } = app.config;
  const log = app.log.child({ module: 'rtls' });
  let client: MqttClient | null = null;
  let subscribed = false;
  let placement: PlanPlacement | null = null;
  let refresher: NodeJS.Timeout | null = null;
  let lastError = 0;

  const loadPlacement = async () => {
    placement = PlanPlacement.of(await listPlans(app.db), origin);
  };
  const logOnce = (error: unknown, message: string) => {
    if (Date.now() - lastError > 5000) log.error({ err: error }, message);
    lastError = Date.now();
  };

  const onMessage = (intake: RtlsIntake, decoder: PositionDecoder, payload: Buffer) => {
    if (payload.length > MAX_SIGHTING_PAYLOAD_BYTES) return intake.refuse();
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return intake.refuse();
    }
    const decoded = decoder.decode(body);
    if (!decoded) return intake.refuse();
    intake.take(decoded.positions, decoded.withoutPosition, placement).catch((error: unknown) => logOnce(error, 'RTLS positions not stored'));
  };

  return {
    open: async (tracking: FixSink) => {
      if (!url || !format) return;
      const decoder = RTLS_DECODERS[format]!;
      const intake = new RtlsIntake(tracking, accuracyM);
      await loadPlacement();
      if (!placement) log.warn('RTLS: no default site plan placed on the map; positions are refused until one is');
      refresher = setInterval(() => void loadPlacement().catch((error) => app.databaseHealth.failed(error, 'RTLS site plan refresh')), PLAN_REFRESH_MS).unref();
      client = mqtt.connect(url, { clientId: `prison-rtls-${app.cluster.instance}`, reconnectPeriod: 1000, clean: true });
      client.on('connect', () => {
        client?.subscribe(`$share/prison/${topic}`, { qos: 1 }, (error) => {
          subscribed = !error;
          if (error) log.error({ err: error }, 'MQTT subscription to the RTLS refused');
          else log.info(`RTLS: subscribed to ${format} positions on ${topic}`);
        });
      });
      client.on('close', () => (subscribed = false));
      client.on('error', (error) => logOnce(error, 'MQTT broker unreachable (RTLS)'));
      client.on('message', (_topic, payload) => onMessage(intake, decoder, payload));
    },
    port: () => null,
    link: () => (url && format ? { name: 'rtls', state: subscribed ? 'up' : 'down' } : null),
    close: async () => {
      await client?.endAsync();
      client = null;
      subscribed = false;
    },
    stop: () => {
      if (refresher) clearInterval(refresher);
      refresher = null;
    },
  };
}
