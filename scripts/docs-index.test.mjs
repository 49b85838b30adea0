// The docs a newcomer reads stay findable and short: every decision record is in the index with a status (and the
// index names no record that is missing), the README and ARCHITECTURE stay within 200 lines, and every relative link in
// the docs points at a file that exists; nothing names a document that is not in the repository (what the code relies on
// from the original system's description is in docs/CLIENT-CONTRACT.md).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const decisionsDir = path.join(root, 'docs/decisions');
const STATUS = /^(in force|amended by \d{3}|replaced by \d{3})/;

describe('docs/decisions/README.md', () => {
  const index = readFileSync(path.join(decisionsDir, 'README.md'), 'utf8');
  const rows = [...index.matchAll(/^\| \[(\d{3})\]\(([^)]+)\) \| (.+?) \| (.+?) \|$/gm)];

  it('lists every decision record once, by its file, with a summary and a status', () => {
    const files = readdirSync(decisionsDir).filter((file) => /^\d{3}-.+\.md$/.test(file)).sort();
    expect(rows.map((row) => row[2])).toEqual(files);
    for (const [, number, file, summary, status] of rows) {
      expect(file.startsWith(number)).toBe(true);
      expect(summary.length).toBeGreaterThan(10);
      expect(status, file).toMatch(STATUS);
    }
  });
});

describe('the entry documents', () => {
  it.each(['README.md', 'docs/ARCHITECTURE.md'])('%s is at most 200 lines', (file) => {
    expect(readFileSync(path.join(root, file), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  const docs = ['README.md', 'CHANGELOG.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  it.each(docs)('every relative link of %s points at a file that exists', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const missing = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((match) => match[1])
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => !existsSync(path.resolve(path.dirname(path.join(root, file)), target)));
    expect(missing).toEqual([]);
  });
});

describe('the repository stands alone', () => {
  it('no file names the original description\'s files, which are not in the repository', () => {
    const outside = new RegExp(`\\b(${['SPEC', 'DECISIONS'].join('|')})\\.md\\b`);
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|tsx|mjs|js|md|html|json|yml|css)$/.test(file) && existsSync(path.join(root, file)));
    const naming = files.filter((file) => outside.test(readFileSync(path.join(root, file), 'utf8')));
    expect(naming).toEqual([]);
  });
});
