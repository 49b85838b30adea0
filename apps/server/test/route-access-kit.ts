// The route matrix's parts (decision 050), shared with the tests that add a dimension (caseloads): the registered
// routes and what their declarations expect of each role, one account per role with sessions made directly, a
// concrete path per route pattern, and a fingerprint of the database to prove a refused request changed nothing.
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { API_PREFIX, AUTH_COOKIE, ROLES, forbiddenMessage, roleMay, type Action, type Role } from '@prison/shared';
import type { App, RegisteredRoute } from '../src/app';
import type { Database } from '../src/db/client';
import { admins } from '../src/db/schema';
import { createTestAccount } from './test-accounts';
import { UNDECLARED_ACCESS_MESSAGE } from '../src/plugins/access';
import { createSession } from '../src/sessions/session-service';

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** A concrete path for a route pattern: parameters become 1 (or the given values), a wildcard a file name. */
export function concretePath(url: string, params: Record<string, string | number> = {}): string {
  return url.replace(/:(\w+)/g, (_, name: string) => String(params[name] ?? 1)).replace('*', 'index.css');
}

/** Every registered route that needs a session (not `public`), with what its declaration asks. */
export function guardedRoutes(app: App): RegisteredRoute[] {
  return app.registeredRoutes.filter((route) => !route.public);
}

/** What a role gets from a route, from the route's declaration and ACTION_ROLES alone. */
export type Expected = { allowed: true } | { allowed: false; message: string };

export function expectedFor(route: Pick<RegisteredRoute, 'access'>, role: Role): Expected {
  if (!route.access) return { allowed: false, message: UNDECLARED_ACCESS_MESSAGE };
  return roleMay(role, route.access) ? { allowed: true } : { allowed: false, message: forbiddenMessage(role, route.access) };
}

/** The roles a body field's extra action refuses on a route the role may otherwise use (an override by a clerk). */
export function refusedForField(route: Pick<RegisteredRoute, 'access'>, action: Action): Role[] {
  return ROLES.filter((role) => route.access && roleMay(role, route.access) && !roleMay(role, action));
}

export interface RoleAccount {
  role: Role;
  id: number;
  username: string;
  password: string;
  blocks: string[];
}

/** One account per role (every block unless `blocks` says otherwise), created directly in the database. */
export async function createRoleAccounts(
  database: Database,
  options: { prefix?: string; blocks?: Partial<Record<Role, string[]>> } = {},
): Promise<Record<Role, RoleAccount>> {
  const accounts = {} as Record<Role, RoleAccount>;
  for (const role of ROLES) {
    const username = `${options.prefix ?? 'matrix'}-${role}`;
    const password = `a long passphrase for ${role} 42`;
    const blocks = options.blocks?.[role] ?? [];
    const created = await createTestAccount(database.db, { username, name: `Matrix ${role}`, password });
    await database.db.update(admins).set({ role, blocks }).where(eq(admins.id, created.id));
    accounts[role] = { role, id: created.id, username, password, blocks };
  }
  return accounts;
}

/** A fresh session of the account (so a route that ends sessions, logout, ends only its own), as a cookie header. */
export async function sessionCookie(database: Database, account: Pick<RoleAccount, 'id'>): Promise<string> {
  const { token } = await createSession(database.db, account.id);
  return `${AUTH_COOKIE}=${token}`;
}

/** Sends a request as a session (a cookie header); the path is absolute (`/api/v1/...`). */
export function sendAs(
  app: App,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return app.inject({
    method: method as 'GET',
    url,
    headers: { cookie, ...(hasBody && { 'content-type': 'application/json' }) },
    payload: hasBody ? JSON.stringify(body ?? {}) : undefined,
  });
}

export const apiPath = (path: string) => `${API_PREFIX}${path}`;

// ----- the database fingerprint ----------------------------------------------------------------------------------
// What a refused request still writes, by design: its `access.refused` audit entry, and the session's activity times
// (sessions are compared by id and revocation only).

/** One query giving a hash per table. */
export async function fingerprintQuery(database: Database): Promise<string> {
  const tables = await database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const rows = (tables as unknown as { rows?: { table_name: string }[] }).rows ?? (tables as unknown as { table_name: string }[]);
  return rows
    .map((r) => r.table_name)
    // The audit chain's head moves with every entry, the refusal's included: audit_log's rows stand for it.
    .filter((t) => t !== 'audit_chain')
    .map((t) => {
      // The welfare schedule's own writes (the leader's watcher enrols new prisoners and raises overdue checks every
      // few seconds) happen whatever the request did, so they are left out.
      const source =
        t === 'sessions'
          ? `(select id, revoked_at from sessions)`
          : t === 'audit_log'
            ? `(select * from audit_log where action <> 'access.refused')`
            : t === 'observation_levels'
              ? `(select * from observation_levels where set_by <> 'welfare schedule' or last_check_id is not null)`
              : t === 'alerts'
                ? `(select * from alerts where kind is distinct from 'observation')`
                : `"${t}"`;
      return `select '${t}' as t, md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as h from ${source} r`;
    })
    .join(' union all ');
}

/** The database's fingerprint: `table:hash` for every table. */
export async function fingerprint(database: Database, query: string): Promise<string> {
  const result = await database.db.execute<{ t: string; h: string }>(sql.raw(query));
  const rows = (result as unknown as { rows?: { t: string; h: string }[] }).rows ?? (result as unknown as { t: string; h: string }[]);
  return rows.map((r) => `${r.t}:${r.h}`).join(' ');
}

/** The tables whose fingerprint differs. */
export function changedTables(before: string, after: string): string {
  const old = new Set(before.split(' '));
  return after
    .split(' ')
    .filter((part) => !old.has(part))
    .map((part) => part.split(':')[0])
    .join(', ');
}
