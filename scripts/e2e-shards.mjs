// Splits the end-to-end spec files into shards of about equal running time (decision 078). Playwright's own
// `--shard` splits by test count, and one shard ran 17.7 minutes while the other finished in 11.3: a few specs wait
// a minute by design (an idle session, a repeated alarm). Durations come from e2e/spec-durations.json, written from
// an earlier run's reports; a spec not listed yet counts as the listed average.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Spec files (names relative to e2e/specs), sorted so a plan is the same on every machine. */
export function specFiles(specsDir) {
  return readdirSync(specsDir)
    .filter((name) => name.endsWith('.spec.ts'))
    .sort();
}

/** Seconds per spec file from a durations file, or {} when there is none. */
export function readDurations(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Longest first, each file to the shard that has the least time so far (ties to the lower shard). Returns one list
 * of files per shard, each in name order; a shard may be empty when there are fewer files than shards.
 */
export function planShards(files, durations, shards) {
  const known = files.map((file) => durations[file]).filter((seconds) => typeof seconds === 'number' && seconds > 0);
  const average = known.length ? known.reduce((sum, seconds) => sum + seconds, 0) / known.length : 1;
  const weight = (file) => (typeof durations[file] === 'number' && durations[file] > 0 ? durations[file] : average);
  const byWeight = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  const plan = Array.from({ length: shards }, () => ({ files: [], seconds: 0 }));
  for (const file of byWeight) {
    let lightest = plan[0];
    for (const shard of plan) if (shard.seconds < lightest.seconds) lightest = shard;
    lightest.files.push(file);
    lightest.seconds += weight(file);
  }
  return plan.map((shard) => shard.files.sort());
}

/** Playwright reads a file argument as a regular expression on the spec's path: this one matches that file alone. */
export function fileFilter(file) {
  return `specs/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}

/**
 * Seconds per spec file from Playwright JSON reports (every attempt counts: a retried test took that long), rounded
 * up, for writing the next durations file.
 */
export function durationsFromReports(reports) {
  const milliseconds = {};
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const file = path.basename(spec.file);
      for (const test of spec.tests)
        for (const result of test.results) milliseconds[file] = (milliseconds[file] ?? 0) + result.duration;
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const report of reports) for (const suite of report.suites ?? []) walk(suite);
  return Object.fromEntries(
    Object.entries(milliseconds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, ms]) => [file, Math.ceil(ms / 1000)]),
  );
}
