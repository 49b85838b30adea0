// The demo accounts: one per role, officers on one block each, passwords that meet the rule,
// published in README.md from the one definition, seeded without a forced change, seeded once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { admins } from '../db/schema';
import { API_PREFIX, ROLE_LABELS, ROLES } from '@prison/shared';
import { describeEachEngine } from '../../test/test-db';
import { useTestApp } from '../../test/test-app';
import { newPasswordProblem } from '../modules/admin/password';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { seedDemoAccounts } from './seed-demo-accounts';

/** README.md's table of the demo accounts, as its lines read. */
function demoAccountsTable(): string[] {
  return [
    '| Role | Username | Password | Blocks |',
    '|---|---|---|---|',
    ...DEMO_ACCOUNTS.map(
      (a) =>
        `| ${ROLE_LABELS[a.role]} | \`${a.username}\` | \`${a.password}\` | ${a.blocks.length ? a.blocks.join(', ') : 'every block'} |`,
    ),
  ];
}

describe('the demo accounts', () => {
  it('one per role, an officer on each of blocks A, B and C, every password within the rule', () => {
    for (const role of ROLES)
      expect(
        DEMO_ACCOUNTS.some((a) => a.role === role),
        role,
      ).toBe(true);
    const officers = DEMO_ACCOUNTS.filter((a) => a.role === 'officer');
    expect(officers.map((a) => a.blocks)).toEqual([['A'], ['B'], ['C']]);
    for (const account of DEMO_ACCOUNTS)
      expect(newPasswordProblem(account.password, account.username), account.username).toBeNull();
  });

  it("README.md's demo section lists them as the code defines them", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../README.md'), 'utf8');
    for (const line of demoAccountsTable()) expect(readme).toContain(line);
  });
});

describeEachEngine('seeding the demo accounts', (engine) => {
  const ctx = useTestApp(engine, { LOGIN_RATE_LIMIT_PER_MINUTE: 10_000 });

  it('creates each with its role and blocks, not asked to change its password; a second run creates nothing', async () => {
    // Guard records to link the wing officers to (their duress alarms name them, decision 100); a police record is not one.
    const guards: number[] = [];
    for (const [last, role, badge] of [['Guard', 'Guard', '880001'], ['Police', 'Police', '880002'], ['Other', 'Guard', '880003']] as const) {
      const res = await ctx().api('POST', '/staff/add', { first_name: 'Demo', last_name: last, role, badge_number: badge });
      expect(res.statusCode, res.body).toBe(200);
      if (role === 'Guard') guards.push(res.json<{ staff_id: number }>().staff_id);
    }
    expect(await seedDemoAccounts(ctx().database.db)).toEqual(DEMO_ACCOUNTS.map((a) => a.username));
    for (const account of DEMO_ACCOUNTS) {
      const login = await ctx().app.inject({
        method: 'POST',
        url: `${API_PREFIX}/admin/login`,
        payload: { username: account.username, password: account.password },
      });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json()).toMatchObject({
        name: account.name,
        role: account.role,
        blocks: account.blocks,
        passwordChangeRequired: false,
      });
    }
    expect(await seedDemoAccounts(ctx().database.db)).toEqual([]);
    const links = await ctx().database.db.select({ username: admins.username, staffId: admins.staffId }).from(admins).where(inArray(admins.username, DEMO_ACCOUNTS.map((a) => a.username)));
    const linkOf = new Map(links.map((row) => [row.username, row.staffId]));
    expect(DEMO_ACCOUNTS.map((a) => linkOf.get(a.username))).toEqual(DEMO_ACCOUNTS.map((a) => (a.username === 'officer-a' ? guards[0] : a.username === 'officer-b' ? guards[1] : null)));
  });
});
