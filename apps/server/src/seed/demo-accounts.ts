// The demo's staff accounts, one per role (officers on one block each): the one place their usernames and passwords
// are written. Seeding (seed-demo-accounts.ts), README.md's demo table (checked by demo-accounts.test.ts),
// `npm run screens` and the e2e specs read them from here. Demo passwords are
// public: demo mode only. Plain data with a type-only import, so a script or a Playwright spec can import it cheaply.
import type { Role } from '@prison/shared';

export interface DemoAccount {
  username: string;
  name: string;
  password: string;
  role: Role;
  /** Block names of the caseload; empty means every block. */
  blocks: string[];
}

export const DEMO_ACCOUNTS = [
  { username: 'admin', name: 'Alex Administrator', password: 'night-shift-control-2026', role: 'administrator', blocks: [] },
  { username: 'supervisor', name: 'Sam Supervisor', password: 'duty-governor-2026', role: 'supervisor', blocks: [] },
  { username: 'operator', name: 'Olive Operator', password: 'control-room-watch-2026', role: 'operator', blocks: [] },
  { username: 'officer-a', name: 'Wing Officer A', password: 'landing-rounds-alpha-2026', role: 'officer', blocks: ['A'] },
  { username: 'officer-b', name: 'Wing Officer B', password: 'landing-rounds-bravo-2026', role: 'officer', blocks: ['B'] },
  { username: 'officer-c', name: 'Wing Officer C', password: 'landing-rounds-charlie-2026', role: 'officer', blocks: ['C'] },
  { username: 'records', name: 'Rita Records', password: 'custody-ledger-2026', role: 'records', blocks: [] },
  { username: 'auditor', name: 'Aldo Auditor', password: 'inspection-visit-2026', role: 'auditor', blocks: [] },
] as const satisfies readonly DemoAccount[];

/** The demo's administrator: the first account of a demo started without ADMIN_PASSWORD. */
export const DEMO_ADMINISTRATOR = DEMO_ACCOUNTS[0];

/** A demo account by role (the first of that role). */
export function demoAccount(role: Role): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return { ...account, blocks: [...account.blocks] };
}
