// The version the product tells (decision 059): package.json's, with the commit from git in a checkout, else from
// build-info.json written by the build, else 'unknown'.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PRODUCT_ROOT, readProductVersion, versionText } from './version';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'prison-version-'));
  folders.push(dir);
  return dir;
};
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it('in this checkout: the root package.json version and the commit git names', () => {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PRODUCT_ROOT, encoding: 'utf8' }).trim();
  const { version } = JSON.parse(readFileSync(path.join(PRODUCT_ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(readProductVersion()).toEqual({ version, commit });
  expect(versionText(readProductVersion())).toBe(`${version} (${commit})`);
});

it('an install without .git takes the commit from build-info.json', () => {
  const dir = folder();
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '1.2.3' }));
  writeFileSync(path.join(dir, 'build-info.json'), JSON.stringify({ version: '1.2.3', commit: 'abc1234' }));
  expect(readProductVersion(dir)).toEqual({ version: '1.2.3', commit: 'abc1234' });
});

it('without either, or with a damaged file, the commit is unknown', () => {
  const dir = folder();
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '1.2.3' }));
  expect(readProductVersion(dir)).toEqual({ version: '1.2.3', commit: 'unknown' });
  writeFileSync(path.join(dir, 'build-info.json'), '{ "commit": "$(rm -rf /)" }');
  expect(readProductVersion(dir).commit).toBe('unknown');
  expect(readProductVersion(folder())).toEqual({ version: 'unknown', commit: 'unknown' });
});
