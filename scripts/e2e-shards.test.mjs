// The end-to-end shard plan (decision 078): every spec file in exactly one shard, the shards' times close, a spec not
// yet timed placed too, and the committed durations naming only spec files that exist.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationsFromReports, fileFilter, planShards, readDurations, specFiles } from './e2e-shards.mjs';

const root = path.resolve(import.meta.dirname, '..');
const seconds = (plan, durations) => plan.map((files) => files.reduce((sum, file) => sum + durations[file], 0));

describe('planShards', () => {
  it('puts each file in one shard, longest first to the lightest shard', () => {
    const durations = {
      'a.spec.ts': 300,
      'b.spec.ts': 90,
      'c.spec.ts': 80,
      'd.spec.ts': 70,
      'e.spec.ts': 60,
      'f.spec.ts': 5,
    };
    const files = Object.keys(durations);
    const plan = planShards(files, durations, 2);
    expect(plan.flat().sort()).toEqual(files);
    // 90 + 80 + 70 + 60 = 300 against 300 + 5: no split of these files does better.
    expect(seconds(plan, durations).sort((a, b) => a - b)).toEqual([300, 305]);
    expect(plan).toContainEqual(['a.spec.ts', 'f.spec.ts']);
  });

  it('counts a spec with no recorded time as the average, so a new spec lands somewhere', () => {
    const plan = planShards(['new.spec.ts', 'x.spec.ts', 'y.spec.ts'], { 'x.spec.ts': 10, 'y.spec.ts': 30 }, 2);
    expect(plan.flat().sort()).toEqual(['new.spec.ts', 'x.spec.ts', 'y.spec.ts']);
    // y (30) alone; the new one counts 20 and joins x (10).
    expect(plan).toContainEqual(['new.spec.ts', 'x.spec.ts']);
  });

  it('gives the same plan whatever order the files come in, and empty shards when files run out', () => {
    const durations = { 'p.spec.ts': 5, 'q.spec.ts': 5, 'r.spec.ts': 5 };
    expect(planShards(['r.spec.ts', 'p.spec.ts', 'q.spec.ts'], durations, 2)).toEqual(
      planShards(['p.spec.ts', 'q.spec.ts', 'r.spec.ts'], durations, 2),
    );
    expect(planShards(['p.spec.ts'], durations, 3)).toEqual([['p.spec.ts'], [], []]);
  });
});

describe('fileFilter', () => {
  it('matches its own spec file and no other', () => {
    const files = specFiles(path.join(root, 'e2e/specs'));
    for (const file of files) {
      const filter = new RegExp(fileFilter(file));
      expect(files.filter((other) => filter.test(path.join(root, 'e2e/specs', other)))).toEqual([file]);
    }
    expect(new RegExp(fileFilter('alerts.spec.ts')).test('/r/e2e/specs/critical-alerts.spec.ts')).toBe(false);
    expect(new RegExp(fileFilter('a.spec.ts')).test('/r/e2e/specs/aXspec.ts')).toBe(false);
  });
});

describe('durationsFromReports', () => {
  it('sums every attempt of every test per file, in whole seconds rounded up', () => {
    const report = {
      suites: [
        { specs: [{ file: 'one.spec.ts', tests: [{ results: [{ duration: 1_200 }, { duration: 900 }] }] }] },
        { suites: [{ specs: [{ file: 'two.spec.ts', tests: [{ results: [{ duration: 10 }] }] }] }] },
      ],
    };
    expect(
      durationsFromReports([
        report,
        { suites: [{ specs: [{ file: 'one.spec.ts', tests: [{ results: [{ duration: 100 }] }] }] }] },
      ]),
    ).toEqual({
      'one.spec.ts': 3,
      'two.spec.ts': 1,
    });
  });
});

describe('e2e/spec-durations.json', () => {
  it('names only spec files that exist, each with a positive number of seconds', () => {
    const durations = readDurations(path.join(root, 'e2e/spec-durations.json'));
    const files = new Set(specFiles(path.join(root, 'e2e/specs')));
    expect(Object.keys(durations).length).toBeGreaterThan(0);
    for (const [file, value] of Object.entries(durations)) {
      expect(files.has(file), `${file} is in e2e/spec-durations.json but not in e2e/specs`).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
  });
});
