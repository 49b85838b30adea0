// One place for each fact: the Chromium launch flags, the demo credentials and the offline
// threshold's default are each written in one file; every other file reads them from there. This test reads every
// tracked source file, so a second copy fails it whoever writes it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEVICE_OFFLINE_SECONDS } from '@prison/shared';
import { DEMO_ACCOUNTS } from '../src/seed/demo-accounts';

const root = path.resolve(import.meta.dirname, '../../..');
const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs|json|yml|yaml|sh|cfg|template|service)$/;

function trackedSources(): { file: string; text: string }[] {
  return (
    execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      // This file names the facts it looks for, so it is left out.
      .filter(
        (file) =>
          SOURCE.test(file) && !file.endsWith('package-lock.json') && file !== 'apps/server/test/facts-once.test.ts',
      )
      .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }))
  );
}

const sources = trackedSources();
const holding = (needle: string | RegExp) =>
  sources
    .filter(({ text }) => (typeof needle === 'string' ? text.includes(needle) : needle.test(text)))
    .map((s) => s.file);

describe('one place for each fact', () => {
  it('finds the sources it reads', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(holding('export const DEFAULT_DEVICE_OFFLINE_SECONDS')).toEqual(['packages/shared/src/settings.ts']);
  });

  it('writes the Chromium launch flags only in scripts/chromium.mjs', () => {
    for (const flag of ['--disable-background-networking', '--disable-component-update', '--no-first-run']) {
      expect(holding(flag), flag).toEqual(['scripts/chromium.mjs']);
    }
  });

  it('writes each demo password only in seed/demo-accounts.ts', () => {
    for (const account of DEMO_ACCOUNTS) {
      expect(holding(account.password), account.username).toEqual(['apps/server/src/seed/demo-accounts.ts']);
    }
  });

  it('writes the offline threshold default only in packages/shared', () => {
    // A number beside the word "offline" in code (not tests) is a second copy of the default; the definition is one.
    const literal = new RegExp(
      `offline[^\\n]{0,60}\\b${DEFAULT_DEVICE_OFFLINE_SECONDS}\\b|\\b${DEFAULT_DEVICE_OFFLINE_SECONDS}\\b[^\\n]{0,60}offline`,
      'i',
    );
    const copies = sources
      .filter(({ file }) => !/\.test\.tsx?$|\.spec\.ts$|^e2e\/|^bench\//.test(file))
      .filter(({ text }) => literal.test(text))
      .map(({ file }) => file);
    expect(copies).toEqual(['packages/shared/src/settings.ts']);
  });
});
