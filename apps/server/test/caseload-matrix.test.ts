// Caseloads on the API (decisions 051 and 093). The matrix: every registered route that names a
// prisoner, a prisoner's record (alert, escort, tracker, incident) or a cell by id (found from the app's own routes: those declaring `config.caseload`;
// every /prisoner/...:id and /devices/:id route must declare it) x an id inside the officer's caseload, one outside it,
// one of a prisoner with no cell and one that does not exist: outside answers exactly what the unknown id answers
// (404, or the route's 400 for a body field; same message) and changes nothing; inside answers something else. Then the lists,
// counts, the chart, the overview and the bulk step answer only the caseload's prisoners (and the alerts about nobody),
// while an administrator (every block) sees every one of them, as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  API_PREFIX,
  KEEP_APART_REASONS,
  KEEP_APART_SCOPES,
  type AlertPage,
  type Overview,
  type PrisonerListResponse,
} from '@prison/shared';
import type { RegisteredRoute } from '../src/app';
import type { CaseloadDeclaration } from '../src/plugins/caseload-guard';
import { alerts, cells, devices, escorts, incidentLinks, incidents, keepApartPairs, prisoners, staff } from '../src/db/schema';
import { insertAlerts } from '../src/modules/alerts/alert-store';
import { loginWithCaseload } from './caseload-accounts';
import { dedupePaths, schemaNodes } from './schema-fields';
import { useTestApp, type TestContext } from './test-app';
import { describeEachEngine } from './test-db';

const BLOCK_A = 'Caseload A';
const BLOCK_B = 'Caseload B';
const UNKNOWN_ID = 987_654;
const UNKNOWN_DEVICE = 'no-such-tracker';
const UNKNOWN_CELL = 'no-such-cell';
/** A third block: a cell for the prisoner with no cell's column of the matrix (a cell always has a block). */
const BLOCK_C = 'Caseload C';
const FROM = new Date(Date.now() - 3_600_000).toISOString();
const TO = new Date().toISOString();

/** What each declared route needs besides the id to get past validation (the caseload is checked after it). */
const REQUESTS: Record<string, { params?: Record<string, string>; query?: Record<string, string>; body?: Record<string, unknown> }> = {
  'PATCH /api/v1/incidents/:id/status': { body: { status: 'investigating' } },
  'POST /api/v1/incidents/:id/links': { body: { alert_ids: [], prisoner_ids: [], staff_ids: [] } },
  'DELETE /api/v1/incidents/:id/links/:kind/:target_id': { params: { kind: 'staff', target_id: '1' } },
  'PUT /api/v1/cell_controls/cells/:cell_id': { body: { capacity: 20 } },
  'POST /api/v1/devices': { body: { kind: 'phone' } },
  'PUT /api/v1/devices/:id/assign': { body: {} },
  'POST /api/v1/keep-apart': { body: { reason: 'Bullying', scope: 'cell' } },
  'POST /api/v1/cell_controls/assign': { body: { cell_id: `${BLOCK_A}-1` } },
  'PUT /api/v1/devices/:id/secret-required': { body: { secret_required: true } },
  'POST /api/v1/escorts': { body: { unmonitored: true } },
  'POST /api/v1/alert/all': { body: { alert_type: 'Informational', details: 'Posted by the caseload matrix' } },
  'PUT /api/v1/prisoner/update/:id': { body: { behavior_record: 'Checked by the caseload matrix' } },
  'GET /api/v1/location/history': { query: { from: FROM, to: TO } },
  'GET /api/v1/location/export': { query: { from: FROM, to: TO, format: 'csv' } },
  'GET /api/v1/location/near': { query: { from: FROM, to: TO, radius_m: '10' } },
  'POST /api/v1/observations': { body: { observed: 'Checked by the caseload matrix' } },
  'PUT /api/v1/prisoners/:id/observation': { body: { level: 'high', reason: 'Checked by the caseload matrix' } },
  'POST /api/v1/prisoners/:id/observation/handover': { body: { staff_id: 1 } },
  'POST /api/v1/alert/:id/acknowledge': { body: { note: 'seen' } },
  'POST /api/v1/alert/:id/resolve': { body: { note: 'dealt with on the wing' } },
  'POST /api/v1/prisoners/:id/flags': { body: { kind: 'escape', note: 'Checked by the caseload matrix' } },
  'POST /api/v1/prisoners/:id/flags/:flagId/clear': { params: { flagId: '1' }, body: { reason: 'Checked by the caseload matrix' } },
};

/** Fields that name a prisoner by id. */
const NAMES_A_PRISONER = /^prisoner_(id|ids|a|b)$/;

/**
 * Fields naming a prisoner that no declaration checks, each with where the caseload is applied instead. The test
 * fails on a new field that is neither declared nor listed here, and on an entry here that no longer exists.
 */
const CHECKED_ELSEWHERE: Record<string, string> = {
  'GET /api/v1/escorts query.prisoner_id': 'a filter of the list, which holds only the caseload\'s escorts',
  'GET /api/v1/keep-apart query.prisoner_id': 'a filter of the list, which holds only the caseload\'s pairs',
  'GET /api/v1/movements query.prisoner_id': 'a filter of the list, which holds only the caseload\'s movements',
  'GET /api/v1/location/replay query.prisoner_ids': 'replay-service reads only the caseload\'s fixes: one outside has none',
  'POST /api/v1/incidents body.prisoner_ids': 'incident-links checkLinks: one outside is unknown',
  'POST /api/v1/incidents/:id/links body.prisoner_ids': 'incident-links checkLinks: one outside is unknown',
  'GET /api/v1/alert/prisoneralerts query.prisoner_id': 'listPrisonerAlerts reads only the caseload\'s alerts',
  'POST /api/v1/movements body.prisoner_ids': 'movement-service startMovement: one outside is unknown',
  'POST /api/v1/messages body.prisoner_ids': 'message-links checkedLinks: one outside is unknown',
  'POST /api/v1/counts/:id/close body.accounts.0.prisoner_id': 'the count is the caseload\'s (declared); an account of a prisoner not on its roll is 400',
  'POST /api/v1/geofence/add body.applies_to.prisoner_ids': 'geofence-service checkAppliesTo: one outside is unknown',
  'PUT /api/v1/geofence/update/:id body.applies_to.prisoner_ids': 'geofence-service checkAppliesTo: one outside is unknown',
};

/** The dotted path of every field of a zod schema whose name says it holds a prisoner's id. */
function prisonerFields(schema: unknown): string[] {
  const named = schemaNodes(schema).filter(({ path }) => typeof path.at(-1) === 'string' && NAMES_A_PRISONER.test(path.at(-1) as string));
  return dedupePaths(named.map(({ path }) => path)).map((path) => path.join('.'));
}

describeEachEngine('caseloads on the API', (engine) => {
  const ctx = useTestApp(engine);
  let officer: (method: string, url: string, payload?: unknown, multipart?: boolean) => ReturnType<TestContext['api']>;
  let seq = 0;

  async function prisonerIn(block: string | null): Promise<number> {
    const [row] = await ctx()
      .database.db.insert(prisoners)
      .values({
        firstName: 'Matrix',
        lastName: `Row${++seq}`,
        status: 'Incarcerated',
        cellId: block === null ? null : `${block}-1`,
      })
      .returning({ id: prisoners.prisonerId });
    return row!.id;
  }

  async function staffMember(): Promise<number> {
    const [row] = await ctx()
      .database.db.insert(staff)
      .values({
        firstName: 'Matrix',
        lastName: `Officer${++seq}`,
        role: 'Police',
        badgeNumber: `M${Date.now() % 1_000_000}${++seq}`,
      })
      .returning({ id: staff.staffId });
    return row!.id;
  }

  /** A record of this prisoner of the kind the route names: an alert, an escort, a tracker (or the prisoner himself). */
  async function recordOf(record: string, prisonerId: number): Promise<number | string> {
    if (record === 'prisoner') return prisonerId;
    if (record === 'alert') return alertAbout(prisonerId);
    if (record === 'escort') {
      const [row] = await ctx()
        .database.db.insert(escorts)
        .values({
          prisonerId,
          staffId: await staffMember(),
          maxDistanceM: 50,
          startsAt: new Date(),
          createdBy: 'matrix',
          unmonitored: true,
        })
        .returning({ id: escorts.id });
      return row!.id;
    }
    if (record === 'incident') {
      const [row] = await ctx()
        .database.db.insert(incidents)
        .values({ prisonerName: 'Matrix', guardName: 'Matrix', date: '2026-01-01', time: '10:00', description: 'Matrix', actionTaken: 'None', windowFrom: new Date(), windowTo: new Date() })
        .returning({ id: incidents.id });
      await ctx().database.db.insert(incidentLinks).values({ incidentId: row!.id, kind: 'prisoner', targetId: prisonerId });
      return row!.id;
    }
    if (record === 'cell') {
      // A fresh cell of the prisoner's block (a route may edit or remove it); the one with no cell: another block's.
      const [found] = await ctx().database.db.select({ cellId: prisoners.cellId }).from(prisoners).where(eq(prisoners.prisonerId, prisonerId));
      const block = found!.cellId === null ? BLOCK_C : found!.cellId.slice(0, -2);
      const [row] = await ctx()
        .database.db.insert(cells)
        .values({ cellId: `${block}-m${++seq}`, block, capacity: 100, securityLevel: 'Low' })
        .returning({ id: cells.cellId });
      return row!.id;
    }
    const res = await ctx().api('POST', '/devices', { kind: 'phone', prisoner_id: prisonerId });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json<{ id: string }>().id;
  }

  async function alertAbout(
    prisonerId: number | null,
    alertType: 'Critical' | 'Informational' = 'Informational',
  ): Promise<number> {
    const [stored] = await insertAlerts(ctx().database.db, [
      { alertType, kind: 'manual', details: `matrix alert ${++seq}`, at: new Date(), deviceId: null, prisonerId },
    ]);
    return stored!.id;
  }

  beforeAll(async () => {
    await ctx()
      .database.db.insert(cells)
      .values([
        { cellId: `${BLOCK_A}-1`, block: BLOCK_A, capacity: 100, securityLevel: 'Low' },
        { cellId: `${BLOCK_B}-1`, block: BLOCK_B, capacity: 100, securityLevel: 'Low' },
        { cellId: `${BLOCK_C}-1`, block: BLOCK_C, capacity: 100, securityLevel: 'Low' },
      ]);
    // A supervisor may take every action of these routes: the caseload alone decides here (roles: the access matrix).
    const cookie = await loginWithCaseload(ctx(), [BLOCK_A], 'supervisor');
    // An upload route (`config.multipartBody`) takes multipart only: it gets one small part, which is no image.
    const boundary = 'caseload-matrix-boundary';
    const onePart = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\nnot an image\r\n--${boundary}--\r\n`;
    officer = (method, url, payload, multipart) =>
      ctx().app.inject({
        method: method as 'GET',
        url: `${API_PREFIX}${url}`,
        payload: multipart ? onePart : (payload as Record<string, unknown> | undefined),
        headers: multipart ? { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` } : { cookie },
      });
  });

  /** The message of a JSON answer; undefined for anything else (a CSV download). */
  function messageOf(answer: { body: string }): string | undefined {
    try {
      return (JSON.parse(answer.body) as { message?: string }).message;
    } catch {
      return undefined;
    }
  }

  const declared = () => ctx().app.registeredRoutes.filter((route) => route.caseload);
  /** Every declaration of every declared route: a route naming two records is checked for each. */
  const declarations = () =>
    declared().flatMap((route) => route.caseload!.map((declaration) => ({ route, declaration })));
  const key = (route: RegisteredRoute) => `${route.method} ${route.url}`;

  /** Puts `id` where the declaration says the route reads it. */
  function place(request: { url: string; query: URLSearchParams; body?: Record<string, unknown> }, declaration: CaseloadDeclaration, id: number | string) {
    if (declaration.from === 'params') request.url = request.url.replace(`:${declaration.field}`, encodeURIComponent(String(id)));
    else if (declaration.from === 'query') request.query.set(declaration.field, String(id));
    else request.body = { ...request.body, [declaration.field]: id };
  }

  /**
   * The request for one declaration of a route and one id; the route's other declarations name records inside the
   * caseload, so only this one decides.
   */
  async function requestFor(route: RegisteredRoute, declaration: CaseloadDeclaration, id: number | string): Promise<{ url: string; body?: unknown }> {
    const extra = REQUESTS[key(route)] ?? {};
    const request = { url: route.url.slice(API_PREFIX.length), query: new URLSearchParams(extra.query ?? {}), body: extra.body };
    place(request, declaration, id);
    for (const other of route.caseload!) {
      if (other !== declaration) place(request, other, await recordOf(other.record, await prisonerIn(BLOCK_A)));
    }
    for (const [param, value] of Object.entries(extra.params ?? {})) request.url = request.url.replace(`:${param}`, value);
    // A route naming a prisoner in its body names someone else too (an escort's officer): a real one.
    if (key(route) === 'POST /api/v1/escorts') request.body = { ...request.body, staff_id: await staffMember() };
    // The move offered with a pair (decision 102) names who moves: one of the pair.
    if (key(route) === 'POST /api/v1/keep-apart') request.body = { ...request.body, move_prisoner_id: request.body?.prisoner_b };
    for (const param of request.url.match(/:\w+/g) ?? []) throw new Error(`${key(route)}: no value for ${param}`);
    return { url: request.query.size ? `${request.url}?${request.query}` : request.url, body: request.body };
  }

  /** The stored rows the request may touch, to prove an out-of-caseload request changed nothing. */
  async function rowsOf(declaration: CaseloadDeclaration, id: number | string): Promise<unknown> {
    const db = ctx().database.db;
    const record = declaration.record;
    const own =
      record === 'prisoner'
        ? await db
            .select()
            .from(prisoners)
            .where(eq(prisoners.prisonerId, id as number))
        : record === 'alert'
          ? await db
              .select()
              .from(alerts)
              .where(eq(alerts.id, id as number))
          : record === 'escort'
            ? await db
                .select()
                .from(escorts)
                .where(eq(escorts.id, id as number))
            : record === 'incident'
              ? [await db.select().from(incidents).where(eq(incidents.id, id as number)), await db.select().from(incidentLinks).where(eq(incidentLinks.incidentId, id as number)).orderBy(incidentLinks.id)]
              : record === 'cell'
                ? await db.select().from(cells).where(eq(cells.cellId, id as string))
                : await db
                    .select()
                    .from(devices)
                    .where(eq(devices.id, id as string));
    const [{ n: audited }] = (
      (await db.execute('select count(*)::int as n from audit_log')) as unknown as { rows: [{ n: number }] }
    ).rows;
    const [{ n: escorted }] = (
      (await db.execute('select count(*)::int as n from escorts')) as unknown as { rows: [{ n: number }] }
    ).rows;
    const [{ n: devicesStored }] = (
      (await db.execute('select count(*)::int as n from devices')) as unknown as { rows: [{ n: number }] }
    ).rows;
    const [{ n: pairs }] = (
      (await db.execute('select count(*)::int as n from keep_apart_pairs')) as unknown as { rows: [{ n: number }] }
    ).rows;
    return { own, audited, escorted, devicesStored, pairs };
  }

  describe('the caseload matrix: every route naming a prisoner or an alert', () => {
    it('finds the routes from the app: every /prisoner/...:id route declares its caseload check', () => {
      const prisonerRoutes = ctx().app.registeredRoutes.filter(
        (route) =>
          (route.url.startsWith(`${API_PREFIX}/prisoner/`) || route.url.startsWith(`${API_PREFIX}/devices/`)) &&
          route.url.includes(':'),
      );
      expect(prisonerRoutes.length).toBeGreaterThanOrEqual(10);
      for (const route of prisonerRoutes) expect(route.caseload, key(route)).toBeDefined();
      const keys = declared().map(key);
      for (const expected of [
        'GET /api/v1/location/history',
        'GET /api/v1/location/export',
        'POST /api/v1/alert/:id/acknowledge',
        'POST /api/v1/alert/:id/resolve',
        'POST /api/v1/alert/:id/respond',
        'POST /api/v1/escorts',
        'POST /api/v1/escorts/:id/end',
        'POST /api/v1/alert/all',
      ]) {
        expect(keys).toContain(expected);
      }
    });

    it('every field of every route naming a prisoner is declared, or listed with where its caseload is applied', () => {
      const found: string[] = [];
      const unchecked: string[] = [];
      for (const route of ctx().app.registeredRoutes.filter((r) => r.url.startsWith(`${API_PREFIX}/`))) {
        for (const from of ['body', 'query'] as const) {
          for (const field of prisonerFields(route[from])) {
            const name = `${key(route)} ${from}.${field}`;
            found.push(name);
            const declaredHere = route.caseload?.some((d) => d.from === from && d.field === field);
            if (!declaredHere && !(name in CHECKED_ELSEWHERE)) unchecked.push(name);
          }
        }
      }
      expect(unchecked, 'fields naming a prisoner with no caseload check').toEqual([]);
      expect(Object.keys(CHECKED_ELSEWHERE).filter((name) => !found.includes(name)), 'entries naming no field').toEqual([]);
      expect(found.length).toBeGreaterThanOrEqual(15);
    });

    it('outside the caseload answers exactly as an unknown id and changes nothing; inside does not answer 404', async () => {
      for (const { route, declaration } of declarations()) {
        const record = declaration.record;
        const name = `${key(route)} ${declaration.from}.${declaration.field}`;
        // Fresh records per route: a route that writes (update, delete) must not decide what the next one finds.
        const ids = {
          inside: await recordOf(record, await prisonerIn(BLOCK_A)),
          outside: await recordOf(record, await prisonerIn(BLOCK_B)),
          noCell: await recordOf(record, await prisonerIn(null)),
        };
        const unknownId = record === 'device' ? UNKNOWN_DEVICE : record === 'cell' ? UNKNOWN_CELL : UNKNOWN_ID;
        const unknown = await requestFor(route, declaration, unknownId);
        const unknownAnswer = await officer(route.method, unknown.url, unknown.body, route.multipartBody);
        expect(unknownAnswer.statusCode, `${name} unknown: ${unknownAnswer.body}`).toBe(declaration.status ?? 404);
        const unknownMessage = unknownAnswer.json<{ message: string }>().message;
        for (const [which, id] of [
          ['outside', ids.outside],
          ['no cell', ids.noCell],
        ] as const) {
          const request = await requestFor(route, declaration, id);
          const before = await rowsOf(declaration, id);
          const answer = await officer(route.method, request.url, request.body, route.multipartBody);
          expect(answer.statusCode, `${name} ${which}: ${answer.body}`).toBe(unknownAnswer.statusCode);
          expect(answer.json(), `${name} ${which}`).toEqual({
            message: unknownMessage.replace(String(unknownId), String(id)),
          });
          expect(await rowsOf(declaration, id), `${name} ${which} changed nothing`).toEqual(before);
        }
        const request = await requestFor(route, declaration, ids.inside);
        const answer = await officer(route.method, request.url, request.body, route.multipartBody);
        expect(answer.statusCode, `${name} inside: ${answer.body}`).toBeLessThan(500);
        expect(messageOf(answer), `${name} inside`).not.toBe(unknownMessage.replace(String(unknownId), String(ids.inside)));
        // An administrator (every block) reaches the outside one as before.
        const adminRequest = await requestFor(route, declaration, ids.outside);
        const adminAnswer = await ctx().api(route.method, adminRequest.url, adminRequest.body);
        expect(messageOf(adminAnswer), `${name} administrator`).not.toBe(
          unknownMessage.replace(String(unknownId), String(ids.outside)),
        );
      }
    }, 180_000); // one request per route, caseload column and record: well over a minute on a loaded machine
  });

  describe('lists, counts, the chart, the overview and the bulk step of a caseload', () => {
    it('answer only the prisoners of the caseload and the alerts about them or about nobody; an administrator sees all', async () => {
      const inside = await prisonerIn(BLOCK_A);
      const outside = await prisonerIn(BLOCK_B);
      const noCell = await prisonerIn(null);
      const insideAlert = await alertAbout(inside, 'Critical');
      const outsideAlert = await alertAbout(outside, 'Critical');
      const noCellAlert = await alertAbout(noCell, 'Critical');
      const nobodyAlert = await alertAbout(null, 'Critical');

      // Prisoners: the list and its total.
      const list = (await officer('GET', '/prisoner/all?limit=100')).json<PrisonerListResponse>();
      const listed = list.prisoners.map((p) => p.prisoner_id);
      expect(listed).toContain(inside);
      expect(listed).not.toContain(outside);
      expect(listed).not.toContain(noCell);
      expect(list.prisoners.every((p) => p.cell_block === BLOCK_A)).toBe(true);
      const [{ n: inA }] = (
        (await ctx().database.db.execute(
          `select count(*)::int as n from prisoners join cells using (cell_id) where block = '${BLOCK_A}' and archived_at is null`,
        )) as unknown as { rows: [{ n: number }] }
      ).rows;
      expect(list.totalPrisoners).toBe(Number(inA));
      // A search by the id of a prisoner outside finds nothing.
      expect(
        (await officer('GET', `/prisoner/all?q=${outside}`))
          .json<PrisonerListResponse>()
          .prisoners.map((p) => p.prisoner_id),
      ).not.toContain(outside);
      const everyone = (await ctx().api('GET', '/prisoner/all?limit=100'))
        .json<PrisonerListResponse>()
        .prisoners.map((p) => p.prisoner_id);
      expect(everyone).toEqual(expect.arrayContaining([inside, outside, noCell]));

      // Alerts: the page and its counts.
      const page = (await officer('GET', '/alert/prisoneralerts?limit=100')).json<AlertPage>();
      const shown = page.data.map((a) => a.id);
      expect(shown).toEqual(expect.arrayContaining([insideAlert, nobodyAlert]));
      expect(shown).not.toContain(outsideAlert);
      expect(shown).not.toContain(noCellAlert);
      expect(page.totalAlerts).toBe(page.data.length);
      expect(page.counts.Critical).toBe(page.data.filter((a) => a.alert_type === 'Critical').length);
      const adminPage = (await ctx().api('GET', '/alert/prisoneralerts?limit=100')).json<AlertPage>();
      expect(adminPage.data.map((a) => a.id)).toEqual(
        expect.arrayContaining([insideAlert, outsideAlert, noCellAlert, nobodyAlert]),
      );
      expect(adminPage.counts.Critical).toBeGreaterThan(page.counts.Critical);
      // Filtered by a prisoner outside: nothing, not his alerts.
      expect((await officer('GET', `/alert/prisoneralerts?prisoner_id=${outside}`)).json<AlertPage>().totalAlerts).toBe(
        0,
      );
      const recent = (await officer('GET', '/alert/recent?limit=100'))
        .json<{ data: { id: number }[] }>()
        .data.map((a) => a.id);
      expect(recent).toContain(insideAlert);
      expect(recent).not.toContain(outsideAlert);
      expect(recent).not.toContain(noCellAlert);
      const liveMap = (await officer('GET', '/alert/live-map'))
        .json<{ data: { prisoner_id: number }[] }>()
        .data.map((p) => p.prisoner_id);
      expect(liveMap).toContain(inside);
      expect(liveMap).not.toContain(outside);
      expect(liveMap).not.toContain(noCell);
      expect(
        (await ctx().api('GET', '/alert/live-map'))
          .json<{ data: { prisoner_id: number }[] }>()
          .data.map((p) => p.prisoner_id),
      ).toContain(outside);

      // The chart counts what the list shows.
      const days = (await officer('GET', '/alert/stats/daily?days=1')).json<{
        days: { Critical: number; Informational: number; Warning: number }[];
      }>().days;
      const visible = (await officer('GET', '/alert/prisoneralerts?limit=100')).json<AlertPage>().data;
      const today = new Date().toISOString().slice(0, 10);
      expect(days.at(-1)!.Critical).toBe(visible.filter((a) => a.alert_type === 'Critical' && a.date === today).length);

      // The overview: only the caseload's blocks, its open alerts and the alerts about nobody.
      const overview = (await officer('GET', '/overview')).json<Overview>();
      expect(overview.blocks.map((b) => b.block)).toEqual([BLOCK_A]);
      expect(overview.prison.assigned).toBe(overview.blocks[0]!.assigned);
      const openCritical = visible.filter((a) => a.alert_type === 'Critical' && a.status !== 'Resolved').length;
      expect(overview.open_alerts.find((l) => l.alert_type === 'Critical')!.open).toBe(openCritical);
      const adminOverview = (await ctx().api('GET', '/overview')).json<Overview>();
      expect(adminOverview.blocks.map((b) => b.block)).toEqual(expect.arrayContaining([BLOCK_A, BLOCK_B]));
      expect(adminOverview.open_alerts.find((l) => l.alert_type === 'Critical')!.open).toBeGreaterThan(openCritical);

      // Escorts, trackers and keep-apart pairs: those of the caseload's prisoners (and the trackers of nobody).
      const [insideEscort, outsideEscort] = [await recordOf('escort', inside), await recordOf('escort', outside)];
      const escorted = (await officer('GET', '/escorts')).json<{ data: { id: number }[] }>().data.map((e) => e.id);
      expect(escorted).toContain(insideEscort);
      expect(escorted).not.toContain(outsideEscort);
      expect((await ctx().api('GET', '/escorts')).json<{ data: { id: number }[] }>().data.map((e) => e.id)).toContain(
        outsideEscort,
      );
      const [insideTracker, outsideTracker] = [await recordOf('device', inside), await recordOf('device', outside)];
      const looseTracker = (await ctx().api('POST', '/devices', { kind: 'phone' })).json<{ id: string }>().id;
      const trackers = (await officer('GET', '/devices')).json<{ data: { id: string }[] }>().data.map((d) => d.id);
      expect(trackers).toEqual(expect.arrayContaining([insideTracker, looseTracker]));
      expect(trackers).not.toContain(outsideTracker);
      const pairs = await ctx()
        .database.db.insert(keepApartPairs)
        .values([
          {
            prisonerA: inside,
            prisonerB: outside,
            reason: KEEP_APART_REASONS[0],
            scope: KEEP_APART_SCOPES[0],
            createdBy: 'matrix',
          },
          {
            prisonerA: outside,
            prisonerB: noCell,
            reason: KEEP_APART_REASONS[0],
            scope: KEEP_APART_SCOPES[0],
            createdBy: 'matrix',
          },
        ])
        .returning({ id: keepApartPairs.id });
      const pairList = await officer('GET', '/keep-apart');
      expect(pairList.statusCode, pairList.body).toBe(200);
      const listedPairs = pairList.json<{ data: { id: number }[] }>().data.map((p) => p.id);
      expect(listedPairs).toContain(pairs[0]!.id);
      expect(listedPairs).not.toContain(pairs[1]!.id);
      expect(
        (await ctx().api('GET', '/keep-apart')).json<{ data: { id: number }[] }>().data.map((p) => p.id),
      ).toContain(pairs[1]!.id);

      // The cell screens show the caseload's blocks only: names, places and occupants (decision 093).
      type CellsOverview = {
        data: {
          block: string;
          occupants: number;
          cells: { cell_id: string; occupants: { prisoner_id: number }[] }[];
        }[];
      };
      const named = (answer: CellsOverview) =>
        answer.data.flatMap((block) => block.cells.flatMap((cell) => cell.occupants.map((o) => o.prisoner_id)));
      const cellsSeen = (await officer('GET', '/cell_controls/overview')).json<CellsOverview>();
      expect(named(cellsSeen)).toContain(inside);
      expect(named(cellsSeen)).not.toContain(outside);
      expect(cellsSeen.data.map((block) => block.block)).toEqual([BLOCK_A]);
      expect(named((await ctx().api('GET', '/cell_controls/overview')).json<CellsOverview>())).toContain(outside);
      expect((await officer('GET', '/cell_controls/blocks')).json()).toEqual({ data: [BLOCK_A] });
      expect((await officer('GET', '/cell_controls/block-summaries')).json<{ data: { block: string }[] }>().data.map((b) => b.block)).toEqual([BLOCK_A]);
      expect((await officer('GET', `/cell_controls/block?block=${encodeURIComponent(BLOCK_B)}`)).json()).toEqual({ data: [] });
      expect((await officer('GET', `/cell_controls/block?block=${encodeURIComponent(BLOCK_A)}`)).json<{ data: unknown[] }>().data.length).toBeGreaterThan(0);
      expect((await ctx().api('GET', '/cell_controls/block-summaries')).json<{ data: { block: string }[] }>().data.map((b) => b.block)).toEqual(
        expect.arrayContaining([BLOCK_A, BLOCK_B]),
      );
      const checked = (await officer('GET', `/cell_controls/check?prisoner_id=${inside}`)).json<{ data: { block: string }[] }>().data;
      expect(new Set(checked.map((c) => c.block))).toEqual(new Set([BLOCK_A]));

      // The bulk step: an alert outside is unknown, and nothing changes.
      const bulk = await officer('POST', '/alert/bulk', {
        ids: [insideAlert, outsideAlert],
        action: 'acknowledge',
        confirm_critical_ids: [insideAlert, outsideAlert],
      });
      expect(bulk.statusCode).toBe(404);
      expect(bulk.json()).toEqual({ message: `Alert ${outsideAlert} not found` });
      const statuses = await ctx().database.db.select({ id: alerts.id, status: alerts.status }).from(alerts);
      expect(statuses.filter((a) => a.id === insideAlert || a.id === outsideAlert).map((a) => a.status)).toEqual([
        'New',
        'New',
      ]);
      const mine = await officer('POST', '/alert/bulk', {
        ids: [insideAlert, nobodyAlert],
        action: 'acknowledge',
        note: 'Officers sent to both',
        confirm_critical_ids: [insideAlert, nobodyAlert],
      });
      expect(mine.statusCode, mine.body).toBe(200);
    });

    it('a geofence naming a prisoner outside the caseload is refused as one naming nobody, on create and update', async () => {
      const zone = (appliesTo: unknown) => ({
        geofence_id: `caseload-zone-${++seq}`,
        shape: 'Circle',
        name: 'Workshop',
        type: 'Positive',
        alert_type: 'Warning',
        radius: 120,
        center_lat: 10.5,
        center_lng: 20.5,
        applies_to: appliesTo,
      });
      const outside = await prisonerIn(BLOCK_B);
      const refused = await officer('POST', '/geofence/add', zone({ prisoner_ids: [outside] }));
      const unknown = await officer('POST', '/geofence/add', zone({ prisoner_ids: [UNKNOWN_ID] }));
      expect(unknown.json()).toEqual({ message: `applies_to.prisoner_ids: there is no prisoner ${UNKNOWN_ID}` });
      expect([refused.statusCode, refused.json()]).toEqual([400, { message: `applies_to.prisoner_ids: there is no prisoner ${outside}` }]);
      const inside = zone({ prisoner_ids: [await prisonerIn(BLOCK_A)] });
      const made = await officer('POST', '/geofence/add', inside);
      expect(made.statusCode, made.body).toBeLessThan(300);
      const update = await officer('PUT', `/geofence/update/${inside.geofence_id}`, { applies_to: { prisoner_ids: [outside] } });
      expect([update.statusCode, update.json()]).toEqual([400, { message: `applies_to.prisoner_ids: there is no prisoner ${outside}` }]);
      // An administrator (every block) names him.
      expect((await ctx().api('POST', '/geofence/add', zone({ prisoner_ids: [outside] }))).statusCode).toBeLessThan(300);
    });
  });
});
