// Nothing leaves custody records (decision 042): the spec's Delete archives a prisoner, whose track,
// pairs, alerts and audit stay answered by history and details, and an administrator restores him; staff with history
// are retired, their escorts kept. Every list-like route of the app is enumerated, so a route added later that forgets
// to leave archived records out fails here without anyone remembering.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  DeviceCreated,
  Escort,
  HistoryResponse,
  KeepApartPair,
  Prisoner,
  PrisonerHoldings,
  PrisonerListResponse,
  StaffListResponse,
  StaffMember,
} from '@prison/shared';
import { API_PREFIX } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { alerts, auditLog, escorts, prisoners } from '../../db/schema';

/**
 * GET routes that answer archived records by design: id lookups (details, history, holdings), the alert lists (an
 * alarm never vanishes with its prisoner; it is closed by an operator), the audit trail, the escorts' history (ended
 * escorts name whoever took part) and the archived lists themselves.
 */
const INCLUDES_ARCHIVED = new Set([
  'GET /api/v1/prisoner/prisonerid/:id',
  'GET /api/v1/prisoner/holdings/:id',
  'GET /api/v1/prisoner/all?archived=true',
  // Asked about him by id: a Transferred record's answer says why no cell takes him (decision 102).
  'GET /api/v1/cell_controls/check?prisoner_id',
  'GET /api/v1/staff/getbyRole/:role?archived=true',
  'GET /api/v1/staff/:id',
  'GET /api/v1/location/history',
  'GET /api/v1/location/export',
  'GET /api/v1/alert/recent',
  'GET /api/v1/alert/prisoneralerts',
  'GET /api/v1/audit',
  'GET /api/v1/audit/export',
  'GET /api/v1/escorts',
  // Investigations read the stored fixes as they were, archived people included.
  'GET /api/v1/location/near',
  'GET /api/v1/location/contacts',
  'GET /api/v1/location/snapshot',
  'GET /api/v1/location/replay',
  // A case file and a roll count keep the people they named then (26).
  'GET /api/v1/incidents/:id',
  'GET /api/v1/incidents',
  'GET /api/v1/incident/recent',
  'GET /api/v1/counts',
  'GET /api/v1/counts/latest',
  'GET /api/v1/counts/:id',
]);

/** Routes that are not about records: documentation, the session, a device's own protocol. */
const NOT_RECORDS = new Set([
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/v1/admin/verify-token',
  'GET /api/v1/ingest/osmand',
  // Single sign-on's redirects (decision 052): 404 while OIDC_ISSUER is unset, and they answer no records.
  'GET /api/v1/auth/oidc/start',
  'GET /api/v1/auth/oidc/callback',
  // The map's background: tiles and the site plan's image.
  'GET /api/v1/tiles/:z/:x/:y',
  'GET /api/v1/site-plans/:id/image',
  // A prisoner's photo: image bytes, found by id like his details (archived too), 404 when he has none.
  'GET /api/v1/prisoners/:id/photo',
]);

describeEachEngine('custody records are archived, never deleted', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, payload?: unknown) => ctx().api(method, url, payload);
  let serial = 0;
  let clock = Date.now() - 3_600_000;
  const unique = (prefix: string) => `${prefix}${engine}${++serial}`;

  async function ok<T>(method: string, url: string, payload?: unknown, status = 200): Promise<T> {
    const res = await api(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.json<T>();
  }

  async function newCell(block: string) {
    const cell_id = unique('AC-');
    await ok('POST', '/cell_controls/cells', { cell_id, block, capacity: 1, security_level: 'Medium' });
    return cell_id;
  }

  const newPrisoner = (first: string, last: string, cell_id: string | null = null) =>
    ok<Prisoner>('POST', '/prisoner/add', {
      first_name: first,
      last_name: last,
      date_of_birth: '1981-03-04',
      gender: 'Male',
      status: 'Incarcerated',
      cell_id,
    });

  async function newDevice(wearer: { prisoner_id?: number; staff_id?: number }) {
    return ok<DeviceCreated>('POST', '/devices', { id: unique('tag-'), name: 'Ankle tag', kind: 'phone', ...wearer }, 201);
  }

  /** Fixes through the gateway batch endpoint, each a second after the last; a low battery raises an alert. */
  async function send(device: DeviceCreated, battery = 90) {
    clock += 1000;
    const res = await api('POST', '/ingest/positions', {
      positions: [
        { device_id: device.id, secret: device.secret, latitude: 48.2, longitude: 16.37, battery, timestamp: new Date(clock).toISOString() },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  const newOfficer = (last: string) =>
    ok<StaffMember>('POST', '/staff/add', { first_name: 'Officer', last_name: last, role: 'Police', badge_number: String(700000 + serial++) });

  /** A prisoner with everything a custody record can hold: cell, tracker, track, an open alert, a pair, an escort. */
  async function prisonerWithHistory(last: string) {
    const block = unique('AB');
    const cellId = await newCell(block);
    const prisoner = await newPrisoner('Quill', last, cellId);
    const partner = await newPrisoner('Partner', unique('Kept'));
    const device = await newDevice({ prisoner_id: prisoner.prisoner_id });
    await send(device);
    await send(device, 5);
    const { pair } = await ok<{ pair: KeepApartPair }>('POST', '/keep-apart', {
      prisoner_a: prisoner.prisoner_id,
      prisoner_b: partner.prisoner_id,
      reason: 'Threat',
      scope: 'cell',
    });
    const officer = await newOfficer(unique('Escorter'));
    await newDevice({ staff_id: officer.staff_id }); // a monitored escort, whatever the escort rules demand
    const { escort } = await ok<{ escort: Escort }>('POST', '/escorts', { prisoner_id: prisoner.prisoner_id, staff_id: officer.staff_id });
    return { prisoner, block, cellId, device, pair, officer, escort };
  }

  const historyOf = (prisonerId: number) =>
    ok<HistoryResponse>(
      'GET',
      `/location/history?prisoner_id=${prisonerId}&from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date().toISOString()}`,
    );

  it('Delete archives: the prisoner leaves the lists and his cell, his track, pair and alerts are still answered, and he is restored with his data', async () => {
    const last = unique('Archivist');
    const { prisoner, cellId, device, pair, escort } = await prisonerWithHistory(last);
    const id = prisoner.prisoner_id;

    const holdings = await ok<PrisonerHoldings>('GET', `/prisoner/holdings/${id}`);
    expect(holdings).toEqual({
      prisoner_id: id,
      status: 'Incarcerated',
      tracking_device_id: device.id,
      open_alerts: { Critical: 0, Warning: expect.any(Number), Informational: expect.any(Number) },
      keep_apart_pairs: 1,
      active_escorts: 1,
    });
    expect(holdings.open_alerts.Warning + holdings.open_alerts.Informational).toBeGreaterThan(0);
    const trackBefore = await historyOf(id);
    expect(trackBefore.total).toBe(2);
    expect(trackBefore.alerts.length).toBeGreaterThan(0);

    // In custody he is not archived (decision 102): released first.
    expect((await api('DELETE', `/prisoner/delete/${id}`)).statusCode).toBe(409);
    await ok('PUT', `/prisoner/update/${id}`, { status: 'Released' });
    expect(await ok('DELETE', `/prisoner/delete/${id}`)).toEqual({ message: 'Prisoner deleted successfully.' });

    // Out of the lists and the cell; the tracker is free; the escort ended.
    const listed = await ok<PrisonerListResponse>('GET', `/prisoner/all?q=${last}`);
    expect(listed.totalPrisoners).toBe(0);
    const cells = await ok<{ data: { cell_id: string; current_occupants: number }[] }>('GET', `/cell_controls/block?block=${prisoner.cell_block ?? ''}`);
    expect(cells.data.find((c) => c.cell_id === cellId)?.current_occupants).toBe(0);
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({ prisonerId: null });
    const ended = await ok<{ data: Escort[] }>('GET', `/escorts?prisoner_id=${id}`);
    expect(ended.data.find((e) => e.id === escort.id)).toMatchObject({ active: false, ended_by: 'warden' });

    // Still answered by id: details (with who and when), history (track and alerts), his pair, his alerts.
    const details = await ok<{ data: Prisoner }>('GET', `/prisoner/prisonerid/${id}`);
    expect(details.data).toMatchObject({ prisoner_id: id, last_name: last, cell_id: cellId, archived_by: 'warden' });
    expect(details.data.archived_at).not.toBeNull();
    const trackAfter = await historyOf(id);
    expect(trackAfter.points).toEqual(trackBefore.points);
    expect(trackAfter.alerts).toEqual(trackBefore.alerts);
    expect((await ok<{ data: KeepApartPair[] }>('GET', `/keep-apart?prisoner_id=${id}`)).data.map((p) => p.id)).toEqual([pair.id]);
    expect(await ctx().database.db.select().from(alerts).where(eq(alerts.prisonerId, id))).not.toHaveLength(0);
    const archivedList = await ok<PrisonerListResponse>('GET', `/prisoner/all?archived=true&q=${last}`);
    expect(archivedList.prisoners.map((p) => p.prisoner_id)).toEqual([id]);

    // Read-only while archived; deleting twice is refused.
    expect((await api('PUT', `/prisoner/update/${id}`, { behavior_record: 'x' })).statusCode).toBe(409);
    expect((await api('DELETE', `/prisoner/delete/${id}`)).statusCode).toBe(409);

    // Restored: back in the lists and his cell, with his record as it was.
    const restored = await ok<Prisoner>('POST', `/prisoner/restore/${id}`);
    expect(restored).toMatchObject({ ...prisoner, status: 'Released', tracking_device_id: null, tracking_device_name: null, archived_at: null, archived_by: null, updated_at: expect.any(String) });
    expect((await ok<PrisonerListResponse>('GET', `/prisoner/all?q=${last}`)).prisoners.map((p) => p.prisoner_id)).toEqual([id]);
    expect((await ok<PrisonerListResponse>('GET', `/prisoner/all?archived=true&q=${last}`)).totalPrisoners).toBe(0);
    expect((await historyOf(id)).total).toBe(2);
    expect((await api('POST', `/prisoner/restore/${id}`)).statusCode).toBe(409);

    const trail = await ctx()
      .database.db.select({ action: auditLog.action, actor: auditLog.actor })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'prisoner'), eq(auditLog.entityId, String(id)))).orderBy(auditLog.id);
    expect(trail.map((row) => row.action)).toEqual(expect.arrayContaining(['create', 'archive', 'restore']));
  });

  it('only a prisoner out of custody, or never placed in a cell, is archived; one in custody in a cell is 409 saying what to do', async () => {
    const cellId = await newCell(unique('AR'));
    const incarcerated = await newPrisoner('Held', unique('Inside'), cellId);
    const refused = await api('DELETE', `/prisoner/delete/${incarcerated.prisoner_id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: `Held ${incarcerated.last_name} (#${incarcerated.prisoner_id}) is Incarcerated in cell ${cellId}: release or transfer him first, then archive the record`,
    });
    await ok('PUT', `/prisoner/update/${incarcerated.prisoner_id}`, { status: 'On Trial' });
    const onTrial = await api('DELETE', `/prisoner/delete/${incarcerated.prisoner_id}`);
    expect(onTrial.statusCode).toBe(409);
    expect(onTrial.json().message).toMatch(/ is On Trial in cell .*: release or transfer him first/);
    expect((await ok<{ data: Prisoner }>('GET', `/prisoner/prisonerid/${incarcerated.prisoner_id}`)).data.archived_at).toBeNull();

    for (const status of ['Released', 'Transferred']) {
      const out = await newPrisoner('Gone', unique(status), await newCell(unique('AR')));
      await ok('PUT', `/prisoner/update/${out.prisoner_id}`, { status });
      expect((await api('DELETE', `/prisoner/delete/${out.prisoner_id}`)).statusCode, status).toBe(200);
      // A released record keeps its last cell, and a restore gives him no place to check (decision 102).
      expect((await api('POST', `/prisoner/restore/${out.prisoner_id}`)).statusCode, status).toBe(200);
    }
    const neverPlaced = await newPrisoner('Mistaken', unique('Entry'));
    expect((await api('DELETE', `/prisoner/delete/${neverPlaced.prisoner_id}`)).statusCode).toBe(200);
  });

  it('a restore into a cell filled since is refused with the cell rule and the way out, and he stays archived', async () => {
    const cellId = await newCell(unique('AB'));
    const first = await newPrisoner('First', unique('Occupant'), cellId);
    // Archived in custody before the rule of decision 102: he would take his place again.
    await ctx().database.db.update(prisoners).set({ archivedAt: new Date(), archivedBy: 'warden' }).where(eq(prisoners.prisonerId, first.prisoner_id));
    await newPrisoner('Second', unique('Occupant'), cellId); // capacity 1: the place was freed
    const refused = await api('POST', `/prisoner/restore/${first.prisoner_id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      rule: 'capacity',
      message: `Cell ${cellId} is full. First ${first.last_name} (#${first.prisoner_id}) stays archived: make room in cell ${cellId} (move or release one of its occupants), then restore again`,
    });
    expect((await ok<{ data: Prisoner }>('GET', `/prisoner/prisonerid/${first.prisoner_id}`)).data.archived_at).not.toBeNull();
  });

  it('the database keeps history: no delete of a prisoner or staff member takes alerts, pairs or escorts with it', async () => {
    const { prisoner, officer } = await prisonerWithHistory(unique('Kept'));
    const db = ctx().database.db;
    await expect(db.delete(prisoners).where(eq(prisoners.prisonerId, prisoner.prisoner_id))).rejects.toThrow();
    const staffDelete = api('DELETE', `/staff/delete/${officer.staff_id}`);
    expect((await staffDelete).statusCode).toBe(409); // escorting now: end the escort first
  });

  it('a staff member with escort history is retired, not deleted: their escorts remain; one without history is deleted', async () => {
    const officerLast = unique('Retiree');
    const { escort, officer } = await prisonerWithHistory(unique('Escorted'));
    expect(officer.last_name).not.toBe(officerLast);
    await ok('POST', `/escorts/${escort.id}/end`);

    expect(await ok('DELETE', `/staff/delete/${officer.staff_id}`)).toEqual({ message: 'Staff member deleted successfully.' });
    const retired = await ok<StaffMember>('GET', `/staff/${officer.staff_id}`);
    expect(retired).toMatchObject({ archived_by: 'warden' });
    expect(retired.archived_at).not.toBeNull();
    const kept = await ctx().database.db.select().from(escorts).where(eq(escorts.staffId, officer.staff_id));
    expect(kept.map((e) => e.id)).toEqual([escort.id]);
    const police = await ok<StaffListResponse>('GET', `/staff/getbyRole/Police?q=${officer.last_name}`);
    expect(police.totalStaff).toBe(0);
    const retiredList = await ok<StaffListResponse>('GET', `/staff/getbyRole/Police?archived=true&q=${officer.last_name}`);
    expect(retiredList.staffMembers.map((s) => s.staff_id)).toEqual([officer.staff_id]);
    // A retired member escorts nobody and is changed only after a restore.
    const prisoner = await newPrisoner('Another', unique('Escorted'));
    expect((await api('POST', '/escorts', { prisoner_id: prisoner.prisoner_id, staff_id: officer.staff_id })).statusCode).toBe(400);
    await ok('POST', `/staff/restore/${officer.staff_id}`);
    expect((await ok<StaffListResponse>('GET', `/staff/getbyRole/Police?q=${officer.last_name}`)).totalStaff).toBe(1);

    const newcomer = await newOfficer(officerLast);
    await ok('DELETE', `/staff/delete/${newcomer.staff_id}`);
    expect((await api('GET', `/staff/${newcomer.staff_id}`)).statusCode).toBe(404);
  });

  it('every list-like GET route leaves archived records out, except those declared to include them', async () => {
    const last = unique('Vanisher');
    const { prisoner, block, cellId, device, officer, escort } = await prisonerWithHistory(last);
    await ok('POST', `/escorts/${escort.id}/end`);
    const officerName = officer.last_name;
    // A roll count of his block and an incident naming him, taken before he is archived.
    const count = await ok<{ id: number }>('POST', '/counts', { block_id: block });
    const incident = await ok<{ id: number }>('POST', '/incidents', {
      description: 'Fight in the yard',
      window: { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() },
      prisoner_ids: [prisoner.prisoner_id],
    });
    const window = `from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date().toISOString()}`;

    // Each route with the values its parameters and required queries need; each way a list is asked for.
    const params: Record<string, string[]> = {
      id: [String(prisoner.prisoner_id)],
      role: ['Police', 'Guard'],
      cell_id: [cellId],
    };
    const paramsFor: Record<string, Record<string, string[]>> = {
      'GET /api/v1/staff/:id': { id: [String(officer.staff_id)] },
      'GET /api/v1/devices/:id': { id: [device.id] },
      'GET /api/v1/counts/:id': { id: [String(count.id)] },
      'GET /api/v1/incidents/:id': { id: [String(incident.id)] },
    };
    const queries: Record<string, string[]> = {
      'GET /api/v1/prisoner/all': ['', 'archived=true', `q=${last}`],
      'GET /api/v1/staff/getbyRole/:role': ['', 'archived=true', `q=${officerName}`],
      'GET /api/v1/cell_controls/block': [`block=${block}`],
      'GET /api/v1/cell_controls/check': ['', `prisoner_id=${prisoner.prisoner_id}`],
      'GET /api/v1/location/history': [
        `prisoner_id=${prisoner.prisoner_id}&from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date().toISOString()}`,
      ],
      'GET /api/v1/location/export': [
        `prisoner_id=${prisoner.prisoner_id}&from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date().toISOString()}`,
      ],
      'GET /api/v1/keep-apart': ['', 'active=true'],
      'GET /api/v1/escorts': ['', 'active=false'],
      'GET /api/v1/location/near': [`prisoner_id=${prisoner.prisoner_id}&radius_m=10&${window}`],
      'GET /api/v1/location/contacts': [`a=prisoner:${prisoner.prisoner_id}&b=staff:${officer.staff_id}&radius_m=10&${window}`],
      'GET /api/v1/location/snapshot': [`at=${new Date().toISOString()}`],
      'GET /api/v1/location/replay': [window],
      'GET /api/v1/observations/due': [`block_id=${block}`],
    };
    const requests = ctx()
      .app.registeredRoutes.filter((r) => r.method === 'GET' && !NOT_RECORDS.has(`GET ${r.url}`))
      .filter((r) => r.url.startsWith(API_PREFIX))
      .flatMap((route) => {
        const key = `GET ${route.url}`;
        const paths = Object.entries({ ...params, ...paramsFor[key] }).reduce(
          (urls, [name, values]) =>
            urls.flatMap((url) => (url.includes(`:${name}`) ? values.map((v) => url.replace(`:${name}`, v)) : [url])),
          [route.url],
        );
        return paths.flatMap((path) =>
          (queries[key] ?? ['']).map((query) => ({
            declared:
              query === 'archived=true'
                ? `${key}?archived=true`
                : key === 'GET /api/v1/cell_controls/check' && query
                  ? `${key}?prisoner_id`
                  : key,
            url: query ? `${path}?${query}` : path,
          })),
        );
      });
    expect(requests.length).toBeGreaterThan(30);

    const namesHim = (body: string) => body.includes(last) || body.includes(officerName);
    const showing = async () => {
      const found: string[] = [];
      for (const { declared, url } of requests) {
        const res = await ctx().app.inject({ method: 'GET', url, headers: { cookie: ctx().cookie } });
        expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
        if (namesHim(res.body)) found.push(declared);
      }
      return new Set(found);
    };

    // Before: the lists, pickers and cell screens show them (so this test can fail).
    const before = await showing();
    for (const key of [
      'GET /api/v1/prisoner/all',
      'GET /api/v1/cell_controls/overview',
      'GET /api/v1/keep-apart',
      'GET /api/v1/devices',
      'GET /api/v1/staff/getbyRole/:role',
    ]) {
      expect(before, key).toContain(key);
    }

    await ok('PUT', `/prisoner/update/${prisoner.prisoner_id}`, { status: 'Transferred' });
    await ok('DELETE', `/prisoner/delete/${prisoner.prisoner_id}`);
    await ok('DELETE', `/staff/delete/${officer.staff_id}`);
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({ prisonerId: null });

    const after = await showing();
    const leaking = [...after].filter((key) => !INCLUDES_ARCHIVED.has(key));
    expect(leaking).toEqual([]);
    expect(after).toContain('GET /api/v1/prisoner/all?archived=true');
    expect(after).toContain('GET /api/v1/prisoner/prisonerid/:id');
    expect(after).toContain('GET /api/v1/location/history');
  });
});
