// `npm run typecheck` fails when any one project has a type error, and names it with tsc's own message; the others
// are still checked. Two throwaway projects stand in for the workspaces (checking those takes most of a minute).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, 'typecheck.mjs');
const work = mkdtempSync(path.join(tmpdir(), 'typecheck-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function project(name, source) {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, files: ['index.ts'] }),
  );
  writeFileSync(path.join(dir, 'index.ts'), source);
  return dir;
}

const run = (...projects) =>
  promisify(execFile)(process.execPath, [script, ...projects]).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error) => ({ code: error.code, output: error.stdout + error.stderr }),
  );

it('passes clean projects and fails on one with a type error, naming the project and the error', async () => {
  const clean = project('clean', 'export const cells: number = 60;\n');
  const broken = project('broken', "export const cells: number = 'sixty';\n");
  expect(await run(clean)).toMatchObject({ code: 0, output: expect.stringContaining('1 of 1 projects clean') });
  const result = await run(broken, clean);
  expect(result.code).toBe(1);
  expect(result.output).toContain(`tsc -p ${broken} failed`);
  expect(result.output).toContain("Type 'string' is not assignable to type 'number'");
  expect(result.output).toContain('1 of 2 projects clean');
}, 60_000);
