import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_PREFIX, type Incident } from '@prison/shared';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog, cells, incidentLinks, prisoners, staff } from '../../db/schema';

describeEachEngine('incidents', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  const incident = (date: string, time: string, description = 'Fight in the yard') => ({
    prisonerName: 'John Doe',
    guardName: 'Officer Smith',
    date,
    time,
    description,
    actionTaken: 'Separated and moved to isolation',
  });

  it('stores incidents and lists the recent ones newest first by date and time', async () => {
    expect((await api('GET', '/incident/recent')).json()).toEqual({ data: [] });
    for (const [date, time] of [
      ['2024-03-01', '09:15'],
      ['2024-03-02', '08:00'],
      ['2024-03-01', '17:40'],
    ]) {
      const res = await api('POST', '/incident/add', incident(date!, time!));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: expect.any(Number), ...incident(date!, time!) });
    }
    const recent = (await api('GET', '/incident/recent')).json().data as Incident[];
    expect(recent.map((i) => `${i.date} ${i.time}`)).toEqual([
      '2024-03-02 08:00',
      '2024-03-01 17:40',
      '2024-03-01 09:15',
    ]);
    expect((await api('GET', '/incident/recent?limit=1')).json().data).toHaveLength(1);
    expect((await api('GET', '/incident/recent?limit=0')).statusCode).toBe(400);
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entity, 'incident')).orderBy(auditLog.id);
    expect(audit).toHaveLength(3);
  });

  it.each([
    [{ date: '2024-02-30' }, 'date'],
    [{ time: '25:00' }, 'time'],
    [{ prisonerName: '' }, 'prisonerName'],
    [{ actionTaken: '   ' }, 'actionTaken'],
  ])('refuses %j with 400 naming the field', async (fields, field) => {
    const res = await api('POST', '/incident/add', { ...incident('2024-01-01', '10:00'), ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^${field}: `));
  });

  it('an officer of block A reads only the incidents about his prisoners, named by them only (decision 093)', async () => {
    const db = ctx().database.db;
    await db.insert(cells).values(['A', 'B', 'C'].map((block) => ({ cellId: `INC-${block}1`, block, capacity: 9, securityLevel: 'Low' })));
    const [a, b, c] = await db
      .insert(prisoners)
      .values(['A', 'B', 'C'].map((block) => ({ firstName: 'Wing', lastName: `Block${block}man`, status: 'Incarcerated', cellId: `INC-${block}1` })))
      .returning({ id: prisoners.prisonerId });
    const [guard] = await db.insert(staff).values({ firstName: 'Gail', lastName: 'Guard', role: 'Guard', badgeNumber: 'INC-G1' }).returning();
    const add = async (prisonerName: string) => {
      const res = await api('POST', '/incident/add', { ...incident('2024-04-01', '10:00', `About ${prisonerName}`), prisonerName });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    // Seven recorded as the spec's client does, the prisoner in words: six about B and C, one about A (any case).
    const outside = [];
    for (const name of ['Wing BlockBman', 'Wing BlockCman', 'wing blockbman', 'Wing BlockCman', 'Wing BlockBman', 'WING BLOCKCMAN']) outside.push(await add(name));
    const own = await add('Wing BlockAman');
    // In words nobody's: it could name anyone, so only accounts of every block see it.
    outside.push(await add('Someone Unknown'));
    const links = await db.select().from(incidentLinks).where(eq(incidentLinks.incidentId, own));
    expect(links).toMatchObject([{ kind: 'prisoner', targetId: a!.id }]);
    const window = { from: '2026-03-01T08:00:00Z', to: '2026-03-01T09:00:00Z' };
    const open = async (body: object) => (await api('POST', '/incidents', { description: 'Opened with links', window, ...body })).json().id as number;
    const shared = await open({ prisoner_ids: [b!.id, a!.id, c!.id] });
    const staffOnly = await open({ staff_ids: [guard!.staffId] });
    outside.push(await open({ prisoner_ids: [c!.id] }));

    const cookie = await loginWithCaseload(ctx(), ['A'], 'officer');
    const asOfficer = (url: string) => ctx().app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers: { cookie } });
    const namesOutside = (body: string) => /Block[BC]man/i.test(body) || body.includes('Someone Unknown');
    for (const url of ['/incident/recent?limit=100', '/incidents?limit=100']) {
      const res = await asOfficer(url);
      expect(res.statusCode, res.body).toBe(200);
      const seen = res.json().data as { id: number; prisonerName: string }[];
      expect(seen.map((i) => i.id).sort(), url).toEqual([own, shared, staffOnly].sort());
      expect(seen.find((i) => i.id === shared)!.prisonerName).toBe('Wing BlockAman');
      expect(seen.find((i) => i.id === staffOnly)!.prisonerName).toBe('No prisoner named');
      expect(namesOutside(res.body.replaceAll(/"description":"[^"]*"/g, '')), url).toBe(false);
      // An administrator (every block) sees every one, with the stored names.
      const all = (await api('GET', url)).json().data as { id: number; prisonerName: string }[];
      expect(all.map((i) => i.id)).toEqual(expect.arrayContaining([...outside, own, shared, staffOnly]));
      expect(all.find((i) => i.id === shared)!.prisonerName).toMatch(/^Wing Block[ABC]man, Wing Block[ABC]man and 1 more$/);
    }
    const detail = await asOfficer(`/incidents/${shared}`);
    expect(detail.json()).toMatchObject({ prisonerName: 'Wing BlockAman', prisoners: [{ id: a!.id, name: 'Wing BlockAman' }] });
    expect(namesOutside(detail.body)).toBe(false);
    const unknown = await asOfficer('/incidents/987654');
    for (const id of outside) {
      const res = await asOfficer(`/incidents/${id}`);
      expect([res.statusCode, res.json()]).toEqual([unknown.statusCode, { message: `No incident with id ${id}` }]);
    }
  });
});
