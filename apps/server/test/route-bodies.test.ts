// What every route does with what it is sent ("the small holes"; decision 043), enumerated from the app
// itself so a route or field added later is covered without editing this file:
// - every text field of every route's body refuses the bidi override U+202E (400 naming the field, nothing stored);
// - every route that takes a body answers 415 `{ message }` to a form-encoded, text or multipart body, unless it
//   declares `config.formBody` (OsmAnd devices) or `config.multipartBody` (file uploads: multipart only);
// - every CSV export neutralises cells a spreadsheet would run as a formula (= + - @ tab CR), device ids such as
//   `-2-3` included.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import type { RegisteredRoute } from '../src/app';
import { JSON_ONLY_MESSAGE, MULTIPART_ONLY_MESSAGE } from '../src/plugins/json-bodies';
import { useTestApp, type TestContext } from './test-app';
import { describeEachEngine } from './test-db';
import { dedupePaths, schemaNodes, type FieldPath, type ZodDef } from './schema-fields';

/** Shows reversed ("\u202Eevil" reads "live") wherever it is displayed; two words and long enough for any reason. */
const REVERSED = 'Reviewed at the gate \u202Eetag eht ta';

// Credentials are compared, never displayed: a password may hold any character (ASVS 6.2.9).
const CREDENTIAL = /password|secret/;

type ZodLike = { _zod: { def: ZodDef } };
type Path = FieldPath;

/** The path of every text leaf of a zod schema (through optional, nullable, pipes, arrays, unions and records). */
function textPaths(schema: unknown): Path[] {
  const text = schemaNodes(schema).filter(({ path, def }) => def.type === 'string' && !path.some((key) => typeof key === 'string' && CREDENTIAL.test(key)));
  return dedupe(text.map(({ path }) => path));
}

const dedupe = dedupePaths;

/**
 * A body for the schema with every text field (but credentials) reversed and every other field a plain value of its
 * type, so the first refusal is about a text field, not a missing number.
 */
function reversedBody(schema: unknown): unknown {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def) return undefined;
  switch (def.type) {
    case 'string':
      return REVERSED;
    case 'number': {
      // The smallest value the field takes, or 1 (an id).
      const checks = (def.checks ?? []) as { _zod: { def: { check: string; value?: number } } }[];
      const minimum = checks.map((c) => c._zod.def).find((c) => c.check === 'greater_than')?.value;
      return Math.max(1, Math.ceil(minimum ?? 1));
    }
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [
          key,
          CREDENTIAL.test(key) ? 'a long enough passphrase 42' : reversedBody(field),
        ]),
      );
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return reversedBody(def.innerType);
    case 'pipe':
      return reversedBody(def.in);
    case 'array':
      return [reversedBody(def.element)];
    case 'union':
      return reversedBody((def.options as unknown[])[0]);
    default:
      return undefined;
  }
}

/** A value with `leaf` at `path`: `{ a: [ { b: leaf } ] }` for the path a.0.b. */
function valueAt(path: Path, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [valueAt(rest, leaf)] : { [head!]: valueAt(rest, leaf) };
}

/** The schemas a body may match: each option of a top-level union, or the schema itself. */
function variants(schema: unknown): unknown[] {
  const def = (schema as ZodLike)._zod.def;
  return def.type === 'union' ? (def.options as unknown[]) : [schema];
}

type SafeParse = { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } };

const bodyRoutes = (ctx: TestContext) =>
  ctx.app.registeredRoutes.filter((r) => r.url.startsWith(`${API_PREFIX}/`) && r.body !== undefined);

/** The route's URL under /api/v1 (as `ctx.api` takes it), with ids that pass their own rules, so the body is judged. */
function sampleUrl(route: RegisteredRoute): string {
  return route.url.slice(API_PREFIX.length).replace(/:(\w+)/g, (_, name: string) => (name === 'role' ? 'Guard' : name === 'cell_id' ? 'A-1' : '1'));
}

/** Row counts of every table (sessions and login bookkeeping aside: the auth hook touches them on every request). */
async function tableFingerprint(ctx: TestContext): Promise<string> {
  const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
  const tables = rowsOf<{ table_name: string }>(
    await ctx.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name not in ('sessions', 'login_throttle') order by 1`,
    ),
  );
  const counts = tables.map((t) => `select '${t.table_name}' as t, count(*)::int as n from "${t.table_name}"`);
  const rows = rowsOf<{ t: string; n: number }>(await ctx.database.db.execute(sql.raw(counts.join(' union all '))));
  return rows.map((r) => `${r.t}:${r.n}`).join(' ');
}

describeEachEngine('route bodies (issue 20)', (engine) => {
  const ctx = useTestApp(engine);

  it('every text field of every body refuses U+202E, naming the field', async () => {
    const routes = bodyRoutes(ctx());
    expect(routes.length).toBeGreaterThan(20);
    let fields = 0;
    const accepted: string[] = [];
    for (const route of routes) {
      // Each field alone: zod reports every field's issue, so the one under test must be among them.
      for (const variant of variants(route.body)) {
        for (const path of textPaths(variant)) {
          fields++;
          const result = (variant as SafeParse).safeParse(valueAt(path, REVERSED));
          const named = result.error?.issues.some((issue) => issue.path.join('.') === path.join('.'));
          if (!named) accepted.push(`${route.method} ${route.url} ${path.join('.')}`);
        }
      }
      // Through the route itself: every text field reversed at once answers 400 naming one of them, storing nothing.
      const paths = dedupe(variants(route.body).flatMap((variant) => textPaths(variant)));
      if (paths.length === 0) continue;
      const body = reversedBody(route.body);
      const before = await tableFingerprint(ctx());
      const res = await ctx().api(route.method, sampleUrl(route), body);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
      const names = paths.map((p) => String(p[0]));
      expect(names, `${route.method} ${route.url}: ${res.body}`).toContain(res.json().message.split(/[.:]/)[0]);
      expect(await tableFingerprint(ctx()), `${route.method} ${route.url}`).toBe(before);
    }
    expect(fields).toBeGreaterThan(40);
    expect(accepted).toEqual([]);
  });

  it('every route with a body answers 415 to a form-encoded, text or multipart body, unless it declares forms', async () => {
    const writes = ctx().app.registeredRoutes.filter(
      (r) => r.url.startsWith(`${API_PREFIX}/`) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && !r.formBody && !r.multipartBody,
    );
    expect(writes.length).toBeGreaterThan(30);
    const boundary = 'x-boundary';
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'username=warden&password=x&first_name=Ada&details=x'],
      ['text/plain', '{"first_name":"Ada"}'],
      ['text/plain;charset=UTF-8', 'username=warden'],
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--${boundary}--\r\n`],
    ];
    const wrong: string[] = [];
    for (const route of writes) {
      for (const [contentType, payload] of bodies) {
        const before = await tableFingerprint(ctx());
        const res = await ctx().api(route.method, sampleUrl(route), payload, { 'content-type': contentType });
        // logout would end the test's session if it ran: 415 proves it did not.
        if (res.statusCode !== 415 || res.json().message !== JSON_ONLY_MESSAGE)
          wrong.push(`${route.method} ${route.url} ${contentType} -> ${res.statusCode} ${res.body}`);
        expect(await tableFingerprint(ctx())).toBe(before);
      }
    }
    expect(wrong).toEqual([]);
    // The same routes still take JSON, and no body at all.
    expect((await ctx().api('POST', '/alert/all', { alert_type: 'Warning', details: 'Still JSON' })).statusCode).toBe(201);
    expect((await ctx().api('POST', '/admin/activity')).statusCode).toBeLessThan(300);
    // The routes that take forms by design are the OsmAnd ones only.
    const forms = ctx().app.registeredRoutes.filter((r) => r.formBody).map((r) => `${r.method} ${r.url}`);
    expect(forms).toEqual([`POST ${API_PREFIX}/ingest/osmand`]);
    // File uploads take multipart only (decision 065): JSON, a form-encoded or a text body answers 415.
    const uploads = ctx().app.registeredRoutes.filter((r) => r.multipartBody);
    expect(uploads.map((r) => `${r.method} ${r.url}`).sort()).toEqual([`POST ${API_PREFIX}/site-plans`, `PUT ${API_PREFIX}/prisoners/:id/photo`, `PUT ${API_PREFIX}/site-plans/:id`].sort());
    for (const route of uploads)
      for (const [contentType, payload] of [...bodies.slice(0, 3), ['application/json', '{"name":"x"}'] as [string, string]]) {
        const res = await ctx().api(route.method, sampleUrl(route), payload, { 'content-type': contentType });
        expect(res.statusCode, `${route.method} ${route.url} ${contentType}`).toBe(415);
        expect(res.json().message).toBe(MULTIPART_ONLY_MESSAGE);
      }
    const osmand = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/ingest/osmand`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=nobody&lat=51.5&lon=-0.12',
    });
    expect(osmand.statusCode).not.toBe(415);
  });
});
