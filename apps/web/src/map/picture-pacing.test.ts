import { describe, expect, it } from 'vitest';
import { PicturePacing, type PacingHooks } from './picture-pacing';

/**
 * The worker's thread, simulated: tasks run one after another, each taking the time its work takes; animation
 * frames come every 16.7 ms and run once the thread is free. Records when each picture is written and shown.
 */
function simulatedWorker(options: { writeMs: number; glideFor: number; ready?: () => boolean }) {
  const frameMs = 1000 / 60;
  let now = 0;
  const tasks: (() => void)[] = [];
  let frameCallbacks: (() => void)[] = [];
  const writes: number[] = [];
  const shown: { at: number; written: number }[] = [];
  let lastWritten = -1;
  const hooks: PacingHooks = {
    write() {
      if (options.ready && !options.ready()) return null;
      writes.push(now);
      lastWritten = now;
      now += options.writeMs;
      return now < options.glideFor;
    },
    show() {
      shown.push({ at: now, written: lastWritten });
    },
    nextFrame: (callback) => void frameCallbacks.push(callback),
    soon: (callback) => void tasks.push(callback),
  };
  const pacing = new PicturePacing(hooks);
  /** Runs the thread until `until` ms. */
  const run = (until: number) => {
    let nextFrameAt = Math.ceil(now / frameMs) * frameMs;
    while (now < until) {
      if (now >= nextFrameAt) {
        const callbacks = frameCallbacks;
        frameCallbacks = [];
        for (const callback of callbacks) callback();
        nextFrameAt = (Math.floor(now / frameMs) + 1) * frameMs;
      } else if (tasks.length) tasks.shift()!();
      else now = Math.min(nextFrameAt, until);
    }
  };
  return { pacing, run, writes, shown, frameMs };
}

describe('PicturePacing', () => {
  it('writes a picture at once when the scene changes, shows it at the next frame, and stops when nothing glides', () => {
    const worker = simulatedWorker({ writeMs: 2, glideFor: 0 });
    worker.pacing.changed();
    worker.run(200);
    expect(worker.writes).toEqual([0]);
    expect(worker.shown).toEqual([{ at: worker.frameMs, written: 0 }]);
  });

  it('while markers glide, shows one picture a frame, each written after the one before was shown', () => {
    const worker = simulatedWorker({ writeMs: 5, glideFor: 1000 });
    worker.pacing.changed();
    worker.run(1000);
    // One picture per frame: 60 a second, never two in one frame.
    expect(worker.shown.length).toBeGreaterThanOrEqual(59);
    const frames = worker.shown.map(({ at }) => Math.floor(at / worker.frameMs));
    expect(new Set(frames).size).toBe(frames.length);
    // Each picture shown is the one written since the last was shown.
    for (let i = 1; i < worker.shown.length; i++) expect(worker.shown[i]!.written).toBeGreaterThanOrEqual(worker.shown[i - 1]!.at);
  });

  it('a picture that takes a little more than a frame to write is shown at the first frame after it is ready', () => {
    // 20 ms a picture: written at the start of each frame it would show one picture every second frame (30 a
    // second); written ahead, one every 20 ms or so.
    const worker = simulatedWorker({ writeMs: 20, glideFor: 1000 });
    worker.pacing.changed();
    worker.run(1000);
    expect(worker.shown.length).toBeGreaterThanOrEqual(45);
    for (const { at, written } of worker.shown) expect(at - written).toBeLessThan(20 + worker.frameMs + 1);
  });

  it('a change while a written picture waits for its frame is written after that picture is shown', () => {
    const worker = simulatedWorker({ writeMs: 2, glideFor: 0 });
    worker.pacing.changed();
    worker.run(5);
    // Written at 0, waiting for the frame at 16.7 ms: the change does not overwrite it.
    worker.pacing.changed();
    worker.run(200);
    expect(worker.writes).toEqual([0, worker.frameMs]);
    expect(worker.shown.map(({ written }) => written)).toEqual([0, worker.frameMs]);
  });

  it('writes nothing before the scene can be written, and writes at the next change once it can', () => {
    let ready = false;
    const worker = simulatedWorker({ writeMs: 2, glideFor: 0, ready: () => ready });
    worker.pacing.changed();
    worker.run(100);
    expect(worker.writes).toEqual([]);
    expect(worker.shown).toEqual([]);
    ready = true;
    worker.pacing.changed();
    worker.run(200);
    expect(worker.writes).toHaveLength(1);
    expect(worker.shown).toHaveLength(1);
  });
});
