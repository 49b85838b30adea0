// Proves the lint rule that keeps tests reading audit rows in the order they were written (decision 090): a select
// from auditLog without .orderBy fails lint, one with it or a count passes, and every server test as it stands obeys.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}eslint.config.js` });
const RULE = 'no-restricted-syntax';
const HEAD = "import { count, desc, eq } from 'drizzle-orm';\nimport { auditLog } from '../src/db/schema';\ndeclare const db: any;\n";

async function orderErrors(body: string, filePath = 'apps/server/test/x.test.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(`${HEAD}${body}\n`, { filePath: `${root}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message);
}

describe('audit rows in tests are read in order', () => {
  it.each([
    ['every row', 'export const rows = await db.select().from(auditLog);'],
    ['filtered', "export const rows = await db.select().from(auditLog).where(eq(auditLog.action, 'create'));"],
    ['mapped', "export const actions = (await db.select({ a: auditLog.action }).from(auditLog).where(eq(auditLog.entity, 'cell'))).map((r: any) => r.a);"],
    ['limited', 'export const rows = await db.select().from(auditLog).limit(5);'],
  ])('a select of %s without orderBy is an error', async (_what, body) => {
    for (const filePath of ['apps/server/test/x.test.ts', 'apps/server/src/modules/cells/x.test.ts']) {
      const errors = await orderErrors(body, filePath);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('orderBy(auditLog.id)');
    }
  });

  it.each([
    ['ordered', "export const rows = await db.select().from(auditLog).where(eq(auditLog.action, 'create')).orderBy(auditLog.id);"],
    ['the newest', 'export const [row] = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);'],
    ['a count', 'export const [n] = await db.select({ n: count() }).from(auditLog);'],
  ])('a select %s passes', async (_what, body) => {
    expect(await orderErrors(body)).toEqual([]);
  });

  it('the server code outside tests is not held to it', async () => {
    expect(await orderErrors('export const rows = await db.select().from(auditLog);', 'apps/server/src/modules/audit/x.ts')).toEqual([]);
  });

  it('every server test as it stands reads audit rows in order', async () => {
    const results = await eslint.lintFiles(['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(found).toEqual([]);
  }, 60_000);
});
