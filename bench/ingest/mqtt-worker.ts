// The MQTT sightings loop of bench/ingest, in a worker thread so the publishers do not share the server's event loop:
// every reader publishes `rate` messages a second, each with its own tags, at QoS 1 through a few client connections.
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

export interface MqttLoadOptions {
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
      options.readers.map((reader, i) => {
        const payload = JSON.stringify({ secret: reader.secret, tags: reader.tags.map((id) => ({ id, rssi: -60, at })) });
        published += reader.tags.length;
        return clients[i % clients.length]!.publishAsync(`prison/readers/${reader.id}/sightings`, payload, { qos: 1 });
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
