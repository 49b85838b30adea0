// The release's checks on their own (the whole `npm run release` is in release.test.mjs): a version needs a dated
// CHANGELOG section with changes, and every document README.md links to is found, through the Markdown it reaches.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assertChangelogHasVersion, changelogSection, linkedDocs, localLinks } from './release-checks.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'release-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const changelog = `# Changelog

## [Unreleased]

## [0.3.0] - 2027-01-02

### Added

- Something.

## [0.2.0] – 2026-12-07

## [0.1.0] - 2026-01-01

- First.
`;

describe('changelogSection', () => {
  it('finds a dated section with its changes and refuses one without a date or without changes', () => {
    expect(changelogSection(changelog, '0.3.0')).toEqual({ date: '2027-01-02', changes: 1 });
    expect(changelogSection(changelog, '0.2.0')).toBeNull();
    expect(changelogSection(changelog, '0.1.0')).toEqual({ date: '2026-01-01', changes: 1 });
    expect(changelogSection(changelog, '0.4.0')).toBeNull();
    expect(changelogSection('## [0.5.0]\n\n- x\n', '0.5.0')).toBeNull();
    // A dot in the version is not a wildcard.
    expect(changelogSection(changelog, '0x3x0')).toBeNull();
  });

  it('has a section for the version in package.json now', () => {
    expect(() => assertChangelogHasVersion(root)).not.toThrow();
  });

  it('names the version when its section is missing', () => {
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ version: '9.9.9' }));
    writeFileSync(path.join(work, 'CHANGELOG.md'), changelog);
    expect(() => assertChangelogHasVersion(work)).toThrow(/no section for version 9\.9\.9/);
  });
});

describe('linkedDocs', () => {
  it('reads Markdown links, images and attributes, skipping anchors and other sites', () => {
    const text = '[a](docs/A.md#part) ![b](img/b.png "t") <img src="s/c.png"> [x](https://x.org) [y](#here) [z](mailto:a@b)';
    expect(localLinks(text, 'docs')).toEqual(['docs/docs/A.md', 'docs/img/b.png', 'docs/s/c.png']);
    expect(localLinks('[up](../deploy/f.conf)', 'docs')).toEqual(['deploy/f.conf']);
  });

  it('follows the Markdown files it reaches and refuses a dead link', () => {
    const dir = path.join(work, 'docs-tree');
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    writeFileSync(path.join(dir, 'README.md'), '[d](docs/D.md) [c](CHANGELOG.md) [code](src/a.ts)');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src/a.ts'), '');
    writeFileSync(path.join(dir, 'CHANGELOG.md'), '# c');
    writeFileSync(path.join(dir, 'docs/D.md'), '[e](E.md) [back](../README.md)');
    writeFileSync(path.join(dir, 'docs/E.md'), '# e');
    // The source file it points into must exist, but is no document to ship.
    expect(linkedDocs(dir)).toEqual(['CHANGELOG.md', 'README.md', 'docs/D.md', 'docs/E.md']);
    writeFileSync(path.join(dir, 'docs/E.md'), '[gone](gone.md)');
    expect(() => linkedDocs(dir)).toThrow(/docs\/E\.md -> docs\/gone\.md/);
  });

  it('finds every document the README links to in this checkout', () => {
    const docs = linkedDocs(root);
    for (const doc of ['README.md', 'CHANGELOG.md', 'docs/ARCHITECTURE.md', 'docs/DEPLOYMENT.md', 'docs/SECURITY.md', 'docs/PERFORMANCE.md']) {
      expect(docs, doc).toContain(doc);
    }
  });
});

describe('npm run release', () => {
  it('refuses a version with no CHANGELOG section before building anything, naming the version', async () => {
    const product = path.join(work, 'product');
    mkdirSync(path.join(product, 'scripts'), { recursive: true });
    for (const script of ['release.mjs', 'release-checks.mjs']) copyFileSync(path.join(root, 'scripts', script), path.join(product, 'scripts', script));
    writeFileSync(path.join(product, 'package.json'), JSON.stringify({ name: 'p', version: '9.9.9', scripts: { release: 'node scripts/release.mjs' } }));
    writeFileSync(path.join(product, 'CHANGELOG.md'), changelog);
    writeFileSync(path.join(product, 'README.md'), '[c](CHANGELOG.md)');
    const out = path.join(product, 'out');
    const failure = await promisify(execFile)('npm', ['run', 'release', '--', '--out', out], { cwd: product }).then(
      () => null,
      (error) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure.stderr).toContain('no section for version 9.9.9');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
