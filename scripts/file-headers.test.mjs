// Every source file of the apps and the shared package opens with a comment that names its job, so a
// reader finds any step by its file and a new file without one fails here, not in review.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE_DIRS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];
/** Tests say what they prove in their names; declaration files declare. */
const isSource = (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts');

function sourceFiles() {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((file) => isSource(file) && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(dir, file)),
  );
}

/** Why this text does not open with a comment naming its job, or null when it does. */
export function headerProblem(text) {
  const first = text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined) return 'is empty';
  const comment = /^\s*(\/\/|\/\*\*?)\s*(.*)$/.exec(first);
  if (!comment) return `opens with code: ${first.trim().slice(0, 60)}`;
  // A lint or tool directive is not a description.
  if (/^(eslint|@ts-|prettier|istanbul|#)/.test(comment[2]))
    return `opens with a directive: ${first.trim().slice(0, 60)}`;
  if (comment[2].split(/\s+/).filter(Boolean).length < 3)
    return `opens with a comment too short to name a job: ${first.trim()}`;
  return null;
}

describe('file headers', () => {
  it.each([
    ["import { z } from 'zod';\n", 'opens with code'],
    ['\n\nexport const x = 1;\n', 'opens with code'],
    ['// eslint-disable-next-line no-console\nconsole.log(1);\n', 'directive'],
    ['// todo\nexport {};\n', 'too short'],
    ['', 'is empty'],
  ])('refuses %j', (text, why) => {
    expect(headerProblem(text)).toContain(why);
  });

  it.each([
    ["// The session's routes: log in, verify, log out.\nimport x from 'y';\n"],
    ['/** A screen frame: title row and body. */\nexport {};\n'],
    ['\n// Debouncing a value that changes as the user types.\n'],
  ])('accepts %j', (text) => {
    expect(headerProblem(text)).toBeNull();
  });

  it('every source file of the apps and the shared package opens with one', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(400);
    const missing = files
      .map((file) => [file, headerProblem(readFileSync(path.join(root, file), 'utf8'))])
      .filter(([, problem]) => problem);
    expect(missing.map(([file, problem]) => `${file} ${problem}`)).toEqual([]);
  });
});

/** The comment lines of a text that name an issue of the tracker (a number that means nothing in a clone). */
export function issueTags(text) {
  return text
    .split('\n')
    .filter((line) => /^\s*(\/\/|\*|\/\*)/.test(line) || /\s\/\/\s/.test(line))
    .filter((line) => /\b[Ii]ssues? \d+/.test(line))
    .map((line) => line.trim());
}

describe('comments say why, not which issue', () => {
  it('finds an issue tag in a comment, and not in code or prose', () => {
    expect(issueTags('// Counts (issue 24 item 2): the roll\nconst x = 1;')).toHaveLength(1);
    expect(issueTags(' * Added by issue 12: null for everyone')).toHaveLength(1);
    expect(issueTags("const text = 'issue 3';\n// Counts as officers see them (decision 098)")).toEqual([]);
  });

  it('no comment of the code, tests, scripts, benchmarks or e2e names an issue number', () => {
    const files = execFileSync('git', ['ls-files', 'apps', 'packages', 'scripts', 'bench', 'e2e'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && file !== 'scripts/file-headers.test.mjs' && existsSync(path.join(root, file)));
    const tagged = files.flatMap((file) => issueTags(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(tagged).toEqual([]);
  });
});
