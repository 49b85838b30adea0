// Simulated indoor readers: each second, every reader reports the tags of the indoor walkers within
// its range, the nearer the stronger, over HTTP (/api/v1/ingest/sightings) or MQTT, as real readers do.
import mqtt, { type MqttClient } from 'mqtt';
import type { Point } from './site';

export interface SimulatedReader {
  id: string;
  secret: string;
  at: Point;
}

export interface SightingTag {
  id: string;
  rssi: number;
  at: number;
}

/** Sends one reader's sightings; resolves once the server (or the broker) took them. */
export interface SightingTransport {
  send(reader: SimulatedReader, tags: SightingTag[]): Promise<void>;
  close(): Promise<void>;
}

/** How far a reader sees a tag (metres), and the signal it reports: -40 dBm at the reader, 1.5 dB weaker a metre. */
export const READER_RANGE_M = 20;
export const rssiAt = (metres: number) => Math.round(-40 - 1.5 * metres);

export function httpSightingTransport(url: string): SightingTransport {
  return {
    async send(reader, tags) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reader_id: reader.id, secret: reader.secret, tags }),
      });
      if (!res.ok) throw new Error(`sightings answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    },
    close: async () => undefined,
  };
}

export function mqttSightingTransport(url: string): SightingTransport {
  let client: Promise<MqttClient> | null = null;
  return {
    async send(reader, tags) {
      client ??= mqtt.connectAsync(url, { reconnectPeriod: 1000 });
      await (await client).publishAsync(`prison/readers/${reader.id}/sightings`, JSON.stringify({ secret: reader.secret, tags }), { qos: 1 });
    },
    close: async () => {
      if (client) await (await client).endAsync();
      client = null;
    },
  };
}
