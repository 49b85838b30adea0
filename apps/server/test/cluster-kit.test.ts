// The test kit's ports: each Vitest worker picks from its own slice of a range, so two test files running at once
// never race for one port between picking it and a child process binding it.
import { describe, expect, it } from 'vitest';
import { fetchRefuses, freePort, HTTP_PORTS, REDIS_PORTS, startChild, stopChild, stopStartedChildren, workerSlice } from './cluster-kit';
import { MQTT_TEST_PORTS } from './mosquitto';

describe('workerSlice', () => {
  for (const [name, range] of Object.entries({ HTTP_PORTS, REDIS_PORTS, MQTT_TEST_PORTS })) {
    it(`${name}: the workers' slices lie inside the range, hold ports, and do not overlap`, () => {
      const slices = [1, 2, 3, 4].map((poolId) => workerSlice(range, poolId));
      for (const slice of slices) {
        expect(slice.from).toBeGreaterThanOrEqual(range.from);
        expect(slice.to).toBeLessThanOrEqual(range.to);
        expect(slice.to - slice.from).toBeGreaterThanOrEqual(9);
      }
      for (const [i, a] of slices.entries())
        for (const b of slices.slice(i + 1)) expect(a.to < b.from || b.to < a.from, `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(true);
    });
  }
});

describe('freePort', () => {
  it('calls at once never hand out one port twice (two processes are started together)', async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort(HTTP_PORTS)));
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe('fetchRefuses', () => {
  /** Whether fetch refuses the port before connecting (the Fetch standard's bad ports), not whether anything answers. */
  const refusedByFetch = (port: number) =>
    fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
      () => false,
      (error: Error & { cause?: Error }) => error.cause?.message === 'bad port',
    );
  for (const [name, range] of Object.entries({ HTTP_PORTS, REDIS_PORTS, MQTT_TEST_PORTS })) {
    it(`${name}: names exactly the ports of the range that fetch refuses, so freePort hands out none of them`, async () => {
      const ports = Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
      const refused = await Promise.all(ports.map(refusedByFetch));
      expect(ports.filter((port) => fetchRefuses(port))).toEqual(ports.filter((_, i) => refused[i]));
    });
  }
});

describe('stopChild', () => {
  it('kills a child that ignores SIGTERM once the grace is over, so an afterAll cannot outwait its timeout', async () => {
    const stubborn = startChild(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000)"], process.env);
    await new Promise((resolve) => stubborn.process.stdout!.once('data', resolve));
    const started = Date.now();
    await stopChild(stubborn, 'SIGTERM', 300);
    expect(stubborn.process.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('stopStartedChildren', () => {
  it('stops every child the file started and still runs, one the test never got hold of included', async () => {
    const child = () => startChild(process.execPath, ['-e', "console.log('up'); setInterval(() => {}, 1000)"], process.env);
    // `kept` as a test keeps what it started; `lost` as a start a test gave up on before it returned.
    const kept = child();
    const lost = child();
    const done = startChild(process.execPath, ['-e', '0'], process.env);
    await Promise.all([kept, lost].map((c) => new Promise((resolve) => c.process.stdout!.once('data', resolve))));
    await new Promise((resolve) => (done.process.exitCode === null ? done.process.once('exit', resolve) : resolve(null)));
    await stopStartedChildren();
    expect([kept, lost].map((c) => c.process.signalCode)).toEqual(['SIGTERM', 'SIGTERM']);
    expect(done.process.exitCode).toBe(0);
  });
});
