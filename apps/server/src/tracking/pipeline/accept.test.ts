// The intake's write lane (decision 055): batches of different devices commit at the same time, a device's fixes
// never overtake each other, a batch that touches shared state runs alone, and an exclusive job waits for all.
import { describe, expect, it } from 'vitest';
import type { FixOutcome } from '@prison/shared';
import type { Fix } from '../fix';
import { FixIntake } from './accept';

const fix = (deviceId: string, ms = Date.now()): Fix => ({ deviceId, recordedAt: new Date(ms), latitude: 51.5, longitude: -0.12 });

/** A writer whose batches stay open until released, recording what was being written at once. */
function heldWriter() {
  const open: { devices: string[]; release: () => void }[] = [];
  const log: string[] = [];
  let most = 0;
  const writeBatch = (fixes: Fix[]): Promise<FixOutcome[]> => {
    const devices = fixes.map((f) => f.deviceId);
    log.push(`start ${devices.join(',')}`);
    return new Promise((resolve) => {
      const entry = {
        devices,
        release: () => {
          open.splice(open.indexOf(entry), 1);
          log.push(`end ${devices.join(',')}`);
          resolve(fixes.map(() => 'stored' as const));
        },
      };
      open.push(entry);
      most = Math.max(most, open.length);
    });
  };
  return { open, log, writeBatch, most: () => most };
}

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await tick(5);
  expect(check()).toBe(true);
}

describe('FixIntake lane', () => {
  it('writes batches of different devices at the same time, up to maxInFlight', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({ writeBatch: writer.writeBatch, failed: () => undefined, maxInFlight: 2, independent: () => true, flushDelayMs: 1, minFixesToOverlap: 1 });
    const first = intake.submit([fix('a')]);
    await until(() => writer.open.length === 1);
    const second = intake.submit([fix('b')]);
    await until(() => writer.open.length === 2);
    const third = intake.submit([fix('c')]);
    await tick(30);
    expect(writer.open.length).toBe(2); // no room for a third
    writer.open[0]!.release();
    await until(() => writer.open.some((w) => w.devices.includes('c')));
    for (const w of [...writer.open]) w.release();
    expect(await Promise.all([first, second, third])).toEqual([['stored'], ['stored'], ['stored']]);
    expect(writer.most()).toBe(2);
  });

  it('holds a batch back while a batch with one of its devices is being written', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({ writeBatch: writer.writeBatch, failed: () => undefined, maxInFlight: 3, independent: () => true, flushDelayMs: 1, minFixesToOverlap: 1 });
    const first = intake.submit([fix('a', 1000)]);
    await until(() => writer.open.length === 1);
    const second = intake.submit([fix('b', 1000), fix('a', 2000)]);
    await tick(30);
    expect(writer.open.length).toBe(1);
    writer.open[0]!.release();
    await until(() => writer.open.length === 1 && writer.open[0]!.devices.includes('b'));
    writer.open[0]!.release();
    await Promise.all([first, second]);
    expect(writer.log).toEqual(['start a', 'end a', 'start b,a', 'end b,a']);
  });

  it('runs a batch that is not independent alone, and an exclusive job after every batch in flight', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({
      writeBatch: writer.writeBatch,
      failed: () => undefined,
      maxInFlight: 3,
      independent: (fixes) => !fixes.some((f) => f.deviceId === 'pair'),
      flushDelayMs: 1,
      minFixesToOverlap: 1,
    });
    const first = intake.submit([fix('a')]);
    await until(() => writer.open.length === 1);
    const shared = intake.submit([fix('pair')]);
    await tick(30);
    expect(writer.open.length).toBe(1); // waits for 'a' although it has other devices
    let jobRan = false;
    const job = intake.runOnLane(async () => {
      jobRan = true;
    });
    writer.open[0]!.release();
    await until(() => writer.open.length === 1 && writer.open[0]!.devices.includes('pair'));
    const later = intake.submit([fix('b')]);
    await tick(30);
    expect(writer.open.length).toBe(1); // nothing beside the shared batch
    expect(jobRan).toBe(false);
    writer.open[0]!.release();
    await job;
    await until(() => writer.open.length === 1);
    expect(writer.open[0]!.devices).toEqual(['b']);
    writer.open[0]!.release();
    await Promise.all([first, shared, later]);
    await intake.idle();
    expect(writer.log).toEqual(['start a', 'end a', 'start pair', 'end pair', 'start b', 'end b']);
  });

  it('starts a batch beside another only once enough fixes wait', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({ writeBatch: writer.writeBatch, failed: () => undefined, maxInFlight: 3, independent: () => true, flushDelayMs: 1, minFixesToOverlap: 3 });
    const first = intake.submit([fix('a')]);
    await until(() => writer.open.length === 1);
    const few = intake.submit([fix('b'), fix('c')]);
    await tick(30);
    expect(writer.open.length).toBe(1); // two waiting: less than three
    const more = intake.submit([fix('d')]);
    await until(() => writer.open.length === 2);
    expect(writer.open[1]!.devices).toEqual(['b', 'c', 'd']);
    for (const w of [...writer.open]) w.release();
    await Promise.all([first, few, more]);
  });

  it('sends a queue of twice the overlap as two batches at once; a device in both halves is written in order', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({ writeBatch: writer.writeBatch, failed: () => undefined, maxInFlight: 3, independent: () => true, flushDelayMs: 5, minFixesToOverlap: 2 });
    const sent = ['a', 'b', 'c', 'd'].map((id) => intake.submit([fix(id)]));
    await until(() => writer.open.length === 2);
    expect(writer.open.map((w) => w.devices)).toEqual([['a', 'b'], ['c', 'd']]);
    for (const w of [...writer.open]) w.release();
    await Promise.all(sent);

    const again = ['e', 'f', 'e', 'g'].map((id, i) => intake.submit([fix(id, 5000 + i)]));
    await until(() => writer.open.length === 1);
    await tick(30);
    expect(writer.open.map((w) => w.devices)).toEqual([['e', 'f']]); // the half with e's later fix waits for it
    writer.open[0]!.release();
    await until(() => writer.open.length === 1 && writer.open[0]!.devices.includes('g'));
    writer.open[0]!.release();
    await Promise.all(again);
    expect(writer.log.slice(4)).toEqual(['start e,f', 'end e,f', 'start e,g', 'end e,g']);
  });

  it('one at a time unless told', async () => {
    const writer = heldWriter();
    const intake = new FixIntake({ writeBatch: writer.writeBatch, failed: () => undefined, independent: () => true, flushDelayMs: 1, minFixesToOverlap: 1 });
    const first = intake.submit([fix('a')]);
    await until(() => writer.open.length === 1);
    const second = intake.submit([fix('b')]);
    await tick(30);
    expect(writer.open.length).toBe(1);
    writer.open[0]!.release();
    await until(() => writer.open.length === 1 && writer.open[0]!.devices.includes('b'));
    writer.open[0]!.release();
    await Promise.all([first, second]);
    expect(writer.most()).toBe(1);
  });
});
