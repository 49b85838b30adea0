// The MQTT sightings loop of bench/ingest, in a worker thread so the publishers do not share the server's event loop:
// every reader publishes its tags `rate` times a second at QoS 1 through a few client connections, in the message
// format under test: ours (one message per reader), OpenMQTTGateway (one message per tag), Minew (one array per
// reader), or an RTLS (Pozyx: arrays of 100 tag positions in plan millimetres).
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

export type BenchFormat = 'prison' | 'openmqttgateway' | 'minew' | 'pozyx';

export interface MqttLoadOptions {
  format: BenchFormat;
  url: string;
  readers: { id: string; secret: string; tags: string[] }[];
  seconds: number;
  /** Messages a second per reader. */
  rate: number;
  /** The instant of the first sightings (ms); each tick is 1000 / rate ms later, so every sighting is its own fix. */
  firstAt: number;
  connections: number;
}

export interface MqttLoadResult {
  published: number;
  elapsedMs: number;
  startedAt: number;
}

/** One tick's messages: topic and payload, and how many sightings (or positions) they carry. */
function messagesOf(options: MqttLoadOptions, at: number): { topic: string; payload: string; count: number }[] {
  const { format, readers } = options;
  if (format === 'prison')
    return readers.map((reader) => ({
      topic: `prison/readers/${reader.id}/sightings`,
      payload: JSON.stringify({ secret: reader.secret, tags: reader.tags.map((id) => ({ id, rssi: -60, at })) }),
      count: reader.tags.length,
    }));
  if (format === 'openmqttgateway')
    return readers.flatMap((reader) =>
      reader.tags.map((id) => ({ topic: `home/${reader.id}/BTtoMQTT/${id}`, payload: JSON.stringify({ id, mac_type: 1, rssi: -60, txpower: -59 }), count: 1 })),
    );
  if (format === 'minew') {
    const timestamp = new Date(at).toISOString();
    return readers.map((reader) => ({
      topic: `/gw/${reader.id}/status`,
      payload: JSON.stringify([
        { timestamp, type: 'Gateway', mac: reader.id, gatewayFree: 90, gatewayLoad: 0.5 },
        ...reader.tags.map((mac) => ({ timestamp, type: 'Unknown', mac, bleName: '', rssi: -60, rawData: '0201061AFF4C000215' })),
      ]),
      count: reader.tags.length,
    }));
  }
  const tags = readers.flatMap((reader) => reader.tags);
  const messages = [];
  for (let i = 0; i < tags.length; i += 100) {
    const updates = tags.slice(i, i + 100).map((tagId, k) => ({
      version: '2.0',
      tagId,
      timestamp: at / 1000,
      success: true,
      data: { coordinates: { x: ((i + k) % 100) * 500, y: Math.floor((i + k) / 100) * 500, z: 1000 } },
    }));
    messages.push({ topic: 'tags', payload: JSON.stringify(updates), count: updates.length });
  }
  return messages;
}

async function run(options: MqttLoadOptions): Promise<MqttLoadResult> {
  const clients = await Promise.all(Array.from({ length: options.connections }, () => mqtt.connectAsync(options.url, { reconnectPeriod: 0 })));
  const stepMs = 1000 / options.rate;
  const ticks = Math.round(options.seconds * options.rate);
  const startedAt = Date.now();
  let published = 0;
  for (let tick = 0; tick < ticks; tick++) {
    const due = startedAt + tick * stepMs;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const at = options.firstAt + Math.round(tick * stepMs);
    await Promise.all(
      messagesOf(options, at).map((message, i) => {
        published += message.count;
        return clients[i % clients.length]!.publishAsync(message.topic, message.payload, { qos: 1 });
      }),
    );
  }
  const elapsedMs = Date.now() - startedAt;
  await Promise.all(clients.map((client) => client.endAsync()));
  return { published, elapsedMs, startedAt };
}

run(workerData as MqttLoadOptions).then(
  (result) => parentPort!.postMessage(result),
  (error: unknown) => parentPort!.postMessage({ error: String(error) }),
);
