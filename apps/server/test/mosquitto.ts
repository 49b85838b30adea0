// A Mosquitto broker of the test's own (indoor readers over MQTT): anonymous on one loopback port of the
// readers' range, no persistence, queues unbounded so a slow subscriber is not dropped messages by the broker.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, listening, startChild, stopChild, type Child } from './cluster-kit';
import { waitFor } from './wait-for';

export const MQTT_TEST_PORTS = { from: 41500, to: 41599 };

export function mosquittoBinary(): string | null {
  return ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((file) => existsSync(file)) ?? null;
}

export interface TestBroker {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `ports`: a range of the test's own, when it must not share the readers' range with tests running beside it. */
export async function startMosquitto(binary: string, ports: { from: number; to: number } = MQTT_TEST_PORTS): Promise<TestBroker> {
  const port = await freePort(ports);
  const dir = mkdtempSync(path.join(tmpdir(), 'mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'max_queued_messages 0', 'max_inflight_messages 0', ''].join('\n'));
  const child: Child = startChild(binary, ['-c', conf], process.env);
  await waitFor('Mosquitto to listen', () => listening(port), 10_000);
  return { url: `mqtt://127.0.0.1:${port}`, port, stop: () => stopChild(child, 'SIGTERM') };
}
