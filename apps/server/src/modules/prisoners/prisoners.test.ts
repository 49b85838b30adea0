import { expect, it } from 'vitest';
import { and, desc, eq, like, sql } from 'drizzle-orm';
import { z } from 'zod';
import { prisoner, prisonerListResponse, type Prisoner, type PrisonerListResponse } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog, devices, prisoners } from '../../db/schema';
import { prisonersChanged } from './prisoner-repository';
import { loginWithCaseload } from '../../../test/caseload-accounts';

describeEachEngine('prisoner records', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  let serial = 0;
  const unique = (prefix: string) => `${prefix}${engine}${++serial}`;

  async function newCell(capacity = 2, block = 'PA') {
    const cell_id = unique('PC-');
    const res = await api('POST', '/cell_controls/cells', { cell_id, block, capacity, security_level: 'Medium' });
    expect(res.statusCode, res.body).toBe(200);
    return cell_id;
  }

  async function newPrisoner(fields: Record<string, unknown> = {}): Promise<Prisoner> {
    const res = await api('POST', '/prisoner/add', {
      first_name: 'John',
      last_name: unique('Doe'),
      date_of_birth: '1980-05-17',
      gender: 'Male',
      national_id: 'Germany',
      entry_date: '2020-01-10',
      status: 'Incarcerated',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const occupancy = async (cellId: string) => {
    const res = await api('GET', `/cell_controls/addOccupant/${cellId}`);
    return res.json().cell.current_occupants as number;
  };

  it('creates a prisoner (200), reads it back with its cell block, and audits the creation', async () => {
    const cellId = await newCell(2, 'Z');
    const created = await newPrisoner({ first_name: 'Ada', cell_id: cellId });
    expect(created).toMatchObject({
      first_name: 'Ada',
      date_of_birth: '1980-05-17',
      national_id: 'Germany',
      status: 'Incarcerated',
      cell_id: cellId,
      cell_block: 'Z',
      release_date: null,
      tracking_device_id: null,
      tracking_device_name: null,
    });
    const res = await api('GET', `/prisoner/prisonerid/${created.prisoner_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(created);
    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'prisoner'), eq(auditLog.entityId, String(created.prisoner_id)))).orderBy(auditLog.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', actor: 'warden', after: created });
  });

  it('documents every prisoner route in the OpenAPI document', async () => {
    const doc = ctx().app.swagger() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    for (const path of [
      '/prisoner/all',
      '/prisoner/prisonerid/{id}',
      '/prisoner/add',
      '/prisoner/update/{id}',
      '/prisoner/delete/{id}',
      '/prisoner/restore/{id}',
      '/prisoner/holdings/{id}',
    ]) {
      const operations = Object.values(doc.paths[`/api/v1${path}`] ?? {});
      expect(operations.length, path).toBeGreaterThan(0);
      expect(operations[0]!.tags).toEqual(['prisoners']);
    }
    for (const path of [
      '/cell_controls/overview',
      '/cell_controls/assign',
      '/staff/getbyRole/{role}',
      '/incident/recent',
    ]) {
      expect(doc.paths[`/api/v1${path}`], path).toBeDefined();
    }
  });

  it('tells open screens to refetch after each write (dataChanged prisoners and cells)', async () => {
    const realtime = ctx().app.realtime;
    const original = realtime.toBrowsers;
    const topics: string[] = [];
    realtime.toBrowsers = () => ({ emit: (_event: string, topic: string) => topics.push(topic) }) as never;
    try {
      const p = await newPrisoner();
      await api('PUT', `/prisoner/update/${p.prisoner_id}`, { behavior_record: 'Quiet' });
      await api('DELETE', `/prisoner/delete/${p.prisoner_id}`);
      await api('POST', '/prisoner/add', { status: 'Escaped' }); // refused: no event
    } finally {
      realtime.toBrowsers = original;
    }
    expect(topics).toEqual(['prisoners', 'cells', 'prisoners', 'cells', 'prisoners', 'cells']);
  });

  it("shows the assigned tracking device's id and name", async () => {
    const p = await newPrisoner();
    const db = ctx().database.db;
    const deviceId = `dev-${engine}-${p.prisoner_id}`;
    // Devices are registered by the devices feature; here the row is written directly.
    await db.insert(devices).values({ id: deviceId, name: 'Ankle Tag 7', secretHash: 'x' });
    await db.update(prisoners).set({ trackingDeviceId: deviceId }).where(eq(prisoners.prisonerId, p.prisoner_id));
    const res = await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`);
    expect(res.json().data).toMatchObject({ tracking_device_id: deviceId, tracking_device_name: 'Ankle Tag 7' });
  });

  it('lists each prisoner exactly as its details route shows it, active and archived (the list JSON comes from PostgreSQL, decision 049)', async () => {
    const cellId = await newCell(2, 'LJ');
    const p = await newPrisoner({
      cell_id: cellId,
      first_name: 'Zoë "Q" \\ O\'Neil',
      behavior_record: 'Line one\nline two\ttabbed, emoji 🚀, quote " and backslash \\',
      medical_history: null,
      release_date: '2031-02-03',
    });
    const db = ctx().database.db;
    const deviceId = `list-json-${engine}-${p.prisoner_id}`;
    await db.insert(devices).values({ id: deviceId, name: 'Tag "7" ✓', secretHash: 'x' });
    // Microseconds PostgreSQL keeps and a JavaScript Date drops: both routes must cut them the same way.
    await db.execute(
      sql`update prisoners set tracking_device_id = ${deviceId}, created_at = '2021-03-04 05:06:07.891999+00', updated_at = '2022-12-31 23:59:59.9999+00' where prisoner_id = ${p.prisoner_id}`,
    );
    const listed = async (query: string) => {
      const res = await api('GET', `/prisoner/all?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json<PrisonerListResponse>();
      // Exactly the documented shape: no field more or less, no value of another type.
      expect(prisonerListResponse.strict().extend({ prisoners: z.array(prisoner.strict()) }).parse(body)).toEqual(body);
      return body;
    };
    const details = async () => (await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`)).json<{ data: Prisoner }>().data;

    const active = await listed(`q=${encodeURIComponent(p.last_name)}`);
    expect(active).toMatchObject({ currentPage: 1, totalPages: 1, totalPrisoners: 1 });
    expect(active.prisoners).toEqual([await details()]);
    expect(active.prisoners[0]).toMatchObject({ created_at: '2021-03-04T05:06:07.891Z', updated_at: '2022-12-31T23:59:59.999Z' });
    expect(Object.keys(active.prisoners[0]!)).toEqual(Object.keys(prisoner.shape));

    expect((await api('PUT', `/prisoner/update/${p.prisoner_id}`, { status: 'Released' })).statusCode).toBe(200);
    expect((await api('DELETE', `/prisoner/delete/${p.prisoner_id}`)).statusCode).toBe(200);
    const archived = await listed(`archived=true&q=${encodeURIComponent(p.last_name)}`);
    expect(archived.prisoners).toEqual([await details()]);
    expect(archived.prisoners[0]!.archived_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Past the last page: an empty list, still the same shape.
    expect(await listed(`archived=true&q=${encodeURIComponent(p.last_name)}&page=3`)).toEqual({
      prisoners: [],
      currentPage: 3,
      totalPages: 1,
      totalPrisoners: 1,
    });
  });

  /** The fields a new prisoner must have, valid. */
  const required = () => ({
    first_name: 'Ada',
    last_name: unique('Lovelace'),
    date_of_birth: '1980-05-17',
    status: 'Incarcerated',
  });
  const prisonerCount = async () =>
    Number((await ctx().database.db.select({ n: sql<number>`count(*)` }).from(prisoners))[0]!.n);

  it('refuses the empty create form with 400 naming first_name, and stores nothing (issue 11: a blank prisoner)', async () => {
    const before = await prisonerCount();
    // What the Create New Prisoner form used to send when nothing was filled in.
    for (const body of [{}, { first_name: '', last_name: '', date_of_birth: '', status: '', cell_id: '' }]) {
      const res = await api('POST', '/prisoner/add', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message: 'first_name: is required' });
    }
    expect(await prisonerCount()).toBe(before);
  });

  it.each(['first_name', 'last_name', 'date_of_birth', 'status'] as const)(
    'refuses a new prisoner without %s (missing, null, empty or blank) with 400 naming it, and stores nothing',
    async (field) => {
      const before = await prisonerCount();
      for (const value of [undefined, null, '', '   ']) {
        const body: Record<string, unknown> = required();
        if (value === undefined) delete body[field];
        else body[field] = value;
        const res = await api('POST', '/prisoner/add', body);
        expect(res.statusCode, `${field}=${JSON.stringify(value)}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ message: `${field}: is required` });
      }
      expect(await prisonerCount()).toBe(before);
    },
  );

  it('refuses a date of birth today or in the future with 400 "date_of_birth: must be in the past"', async () => {
    const before = await prisonerCount();
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const date_of_birth of [today, tomorrow, '2099-01-01']) {
      const res = await api('POST', '/prisoner/add', { ...required(), date_of_birth });
      expect(res.statusCode, date_of_birth).toBe(400);
      expect(res.json()).toEqual({ message: 'date_of_birth: must be in the past' });
    }
    expect(await prisonerCount()).toBe(before);
  });

  it('creates a prisoner from the four required fields alone (200)', async () => {
    const body = required();
    const res = await api('POST', '/prisoner/add', { ...body, first_name: '  Ada  ', cell_id: '', gender: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...body, first_name: 'Ada', gender: null, cell_id: null });
  });

  it('lets an update leave a required field out but never clear it; a single-field update still works', async () => {
    const p = await newPrisoner({ behavior_record: null });
    for (const [field, value] of [
      ['first_name', ''],
      ['last_name', '  '],
      ['date_of_birth', null],
      ['date_of_birth', ''],
      ['status', null],
      ['status', ''],
    ] as const) {
      const res = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { [field]: value });
      expect(res.statusCode, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(res.json()).toEqual({ message: `${field}: is required` });
    }
    // The full field set of the update dialog with the date of birth emptied is refused as a whole.
    const { prisoner_id: _id, created_at: _c, updated_at: _u, cell_block: _b, tracking_device_name: _n, ...record } = p;
    const emptied = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { ...record, date_of_birth: '' });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json()).toEqual({ message: 'date_of_birth: is required' });
    const future = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { date_of_birth: '2099-01-01' });
    expect(future.json()).toEqual({ message: 'date_of_birth: must be in the past' });
    expect((await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`)).json().data).toEqual(p);

    // SPEC 7: a single field (behavior_record or medical_history) alone.
    const remark = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { behavior_record: 'Calm' });
    expect(remark.statusCode, remark.body).toBe(200);
    expect(remark.json()).toMatchObject({ behavior_record: 'Calm', first_name: p.first_name, status: p.status });
    const medical = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { medical_history: 'Asthma' });
    expect(medical.statusCode, medical.body).toBe(200);
  });

  it.each([
    [{ date_of_birth: '2001-02-30' }, /^date_of_birth: /],
    [{ date_of_birth: '17/05/1980' }, /^date_of_birth: /],
    [{ date_of_birth: '2099-01-01' }, /^date_of_birth: must be in the past/],
    [{ entry_date: '2020-13-01' }, /^entry_date: /],
    [{ date_of_birth: '1990-01-01', entry_date: '1985-01-01' }, /^entry_date: must not be before date_of_birth/],
    [{ entry_date: '2020-01-10', release_date: '2019-12-31' }, /^release_date: must not be before entry_date/],
    [{ gender: 'Unknown' }, /^gender: /],
    [{ status: 'Escaped' }, /^status: /],
    [{ national_id: 'Atlantis' }, /^national_id: .*country/],
    [{ first_name: 'x'.repeat(101) }, /^first_name: /],
  ])('refuses bad input %j with 400 naming the field, and stores nothing', async (fields, message) => {
    const before = (await api('GET', '/prisoner/all')).json().totalPrisoners;
    const res = await api('POST', '/prisoner/add', { ...required(), ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await api('GET', '/prisoner/all')).json().totalPrisoners).toBe(before);
  });

  it('refuses an unknown cell with 400 and a full cell with 409 "Cell X is full"', async () => {
    const unknown = await api('POST', '/prisoner/add', { ...required(), cell_id: 'NO-SUCH-CELL' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'cell_id: cell NO-SUCH-CELL does not exist' });
    const cellId = await newCell(1);
    await newPrisoner({ cell_id: cellId, status: 'On Trial' });
    const full = await api('POST', '/prisoner/add', { ...required(), cell_id: cellId, status: 'Incarcerated' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ message: `Cell ${cellId} is full`, rule: 'capacity' });
    // A released prisoner takes no place, so their record may still name the cell.
    const released = await api('POST', '/prisoner/add', { ...required(), cell_id: cellId, status: 'Released', override_reason: 'Last cell kept on the record' });
    expect(released.statusCode).toBe(200);
    expect(await occupancy(cellId)).toBe(1);
  });

  it('updates the full field set, or one field, and clears a field with null or ""', async () => {
    const p = await newPrisoner();
    const full = await api('PUT', `/prisoner/update/${p.prisoner_id}`, {
      first_name: 'Bea',
      last_name: 'Smith',
      date_of_birth: '1975-03-04',
      gender: 'Female',
      national_id: 'France',
      entry_date: '2019-06-01',
      release_date: '2030-06-01',
      status: 'On Trial',
      cell_id: null,
      prisoner_id: 99999, // extra keys from the form are ignored
    });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({
      prisoner_id: p.prisoner_id,
      first_name: 'Bea',
      gender: 'Female',
      release_date: '2030-06-01',
    });

    const remark = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { behavior_record: 'Calm, cooperative.' });
    expect(remark.statusCode).toBe(200);
    expect(remark.json()).toMatchObject({ behavior_record: 'Calm, cooperative.', first_name: 'Bea' });

    const medical = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { medical_history: 'Asthma' });
    expect(medical.json()).toMatchObject({ medical_history: 'Asthma', behavior_record: 'Calm, cooperative.' });

    const cleared = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { behavior_record: '', release_date: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ behavior_record: null, release_date: null });
    const clearedDate = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { release_date: '' });
    expect(clearedDate.statusCode).toBe(200);

    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'prisoner'),
          eq(auditLog.entityId, String(p.prisoner_id)),
          eq(auditLog.action, 'update'),
        ),
      )
      // Without an order PostgreSQL may return the rows in any order; every update's `after` names Bea.
      .orderBy(auditLog.id);
    expect(audit.length).toBe(5);
    expect(audit[0]?.after).toMatchObject({ first_name: 'Bea' });
    expect(audit[0]?.before).toMatchObject({ first_name: 'John' });
  });

  it('checks the dates of an update against the stored record', async () => {
    const p = await newPrisoner({ entry_date: '2020-01-10' });
    const res = await api('PUT', `/prisoner/update/${p.prisoner_id}`, { release_date: '2019-01-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('release_date: must not be before entry_date');
    expect((await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`)).json().data.release_date).toBeNull();
  });

  it('answers 400 for an empty update and for a bad id, 404 for an unknown id', async () => {
    const p = await newPrisoner();
    expect((await api('PUT', `/prisoner/update/${p.prisoner_id}`, {})).statusCode).toBe(400);
    expect((await api('GET', '/prisoner/prisonerid/abc')).json().message).toMatch(/^id: /);
    const missing = await api('GET', '/prisoner/prisonerid/987654');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Prisoner 987654 not found' });
    expect((await api('PUT', '/prisoner/update/987654', { first_name: 'X' })).statusCode).toBe(404);
    expect((await api('DELETE', '/prisoner/delete/987654')).statusCode).toBe(404);
  });

  it('counts a prisoner once when they stay in their cell, and checks room when they move or start occupying', async () => {
    const cellId = await newCell(1);
    const inCell = await newPrisoner({ cell_id: cellId });
    // Editing other fields of the only occupant of a full cell is fine.
    const same = await api('PUT', `/prisoner/update/${inCell.prisoner_id}`, { first_name: 'Still', cell_id: cellId });
    expect(same.statusCode, same.body).toBe(200);
    // A released prisoner in the full cell cannot start occupying it again.
    const other = await newPrisoner({ status: 'Released', cell_id: null });
    const moveIn = await api('PUT', `/prisoner/update/${other.prisoner_id}`, { cell_id: cellId, override_reason: 'Last cell kept on the record' });
    expect(moveIn.statusCode).toBe(200);
    const back = await api('PUT', `/prisoner/update/${other.prisoner_id}`, { status: 'Incarcerated' });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe(`Cell ${cellId} is full`);
    // Releasing the occupant frees the place.
    await api('PUT', `/prisoner/update/${inCell.prisoner_id}`, { status: 'Released' });
    expect(await occupancy(cellId)).toBe(0);
    expect((await api('PUT', `/prisoner/update/${other.prisoner_id}`, { status: 'Incarcerated' })).statusCode).toBe(
      200,
    );
    expect(await occupancy(cellId)).toBe(1);
  });

  it('deletes a released prisoner from the lists with the spec message; the record is archived (decisions 042, 102)', async () => {
    const cellId = await newCell(1);
    const p = await newPrisoner({ cell_id: cellId });
    expect((await api('DELETE', `/prisoner/delete/${p.prisoner_id}`)).statusCode).toBe(409); // in custody
    expect(await occupancy(cellId)).toBe(1);
    await api('PUT', `/prisoner/update/${p.prisoner_id}`, { status: 'Released' });
    const res = await api('DELETE', `/prisoner/delete/${p.prisoner_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Prisoner deleted successfully.' });
    const archived = await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`);
    expect(archived.json().data).toMatchObject({ prisoner_id: p.prisoner_id, archived_by: 'warden' });
    expect(await occupancy(cellId)).toBe(0);
  });

  it('pages newest first with correct totals, and searches and filters on the server', async () => {
    const tag = unique('Pagey');
    const made: Prisoner[] = [];
    for (let i = 0; i < 23; i++) {
      made.push(
        await newPrisoner({
          first_name: i % 2 ? 'Odd' : 'Even',
          last_name: `${tag}${String(i).padStart(2, '0')}`,
          status: i < 5 ? 'Released' : 'On Trial',
          national_id: i === 7 ? 'Japan' : 'Germany',
        }),
      );
    }
    const page1: PrisonerListResponse = (await api('GET', `/prisoner/all?page=1&last_name=${tag}`)).json();
    expect(page1).toMatchObject({ currentPage: 1, totalPages: 2, totalPrisoners: 23 });
    expect(page1.prisoners).toHaveLength(20);
    expect(page1.prisoners[0]!.prisoner_id).toBe(made[22]!.prisoner_id);
    const page2: PrisonerListResponse = (await api('GET', `/prisoner/all?page=2&last_name=${tag}`)).json();
    expect(page2.prisoners.map((p) => p.prisoner_id)).toEqual(
      made
        .slice(0, 3)
        .reverse()
        .map((p) => p.prisoner_id),
    );
    const beyond: PrisonerListResponse = (await api('GET', `/prisoner/all?page=9&last_name=${tag}`)).json();
    expect(beyond).toMatchObject({ prisoners: [], totalPrisoners: 23 });

    const limited = (await api('GET', `/prisoner/all?limit=5&last_name=${tag.toUpperCase()}`)).json();
    expect(limited).toMatchObject({ totalPages: 5, totalPrisoners: 23 });
    expect((await api('GET', '/prisoner/all?limit=101')).statusCode).toBe(400);
    expect((await api('GET', '/prisoner/all?page=0')).statusCode).toBe(400);
    expect((await api('GET', '/prisoner/all?status=Escaped')).json().message).toMatch(/^status: /);

    const released = (await api('GET', `/prisoner/all?status=Released&last_name=${tag}`)).json();
    expect(released.totalPrisoners).toBe(5);
    const odd = (await api('GET', `/prisoner/all?first_name=od&last_name=${tag}`)).json();
    expect(odd.totalPrisoners).toBe(11);
    // Name filters match from the start of the name; the free search (q) matches anywhere.
    expect((await api('GET', `/prisoner/all?first_name=dd&last_name=${tag}`)).json().totalPrisoners).toBe(0);
    expect((await api('GET', `/prisoner/all?q=${tag.slice(1)}`)).json().totalPrisoners).toBe(23);
    const byQ = (await api('GET', `/prisoner/all?q=${tag.toLowerCase()}0`)).json();
    expect(byQ.totalPrisoners).toBe(10);
    const byCountry = (await api('GET', `/prisoner/all?q=japan&last_name=${tag}`)).json();
    expect(byCountry.prisoners.map((p: Prisoner) => p.prisoner_id)).toEqual([made[7]!.prisoner_id]);
    const byId = (await api('GET', `/prisoner/all?q=${made[3]!.prisoner_id}&last_name=${tag}`)).json();
    expect(byId.prisoners.map((p: Prisoner) => p.prisoner_id)).toContain(made[3]!.prisoner_id);
    const byFullName = (await api('GET', `/prisoner/all?q=${encodeURIComponent(`even ${tag}04`)}`)).json();
    expect(byFullName.totalPrisoners).toBe(1);
    // Wildcards typed by the user are taken literally.
    expect((await api('GET', '/prisoner/all?q=%25')).json().totalPrisoners).toBe(0);
    // An empty parameter is no filter (hand-written URLs, or a form that sends every field).
    expect((await api('GET', `/prisoner/all?status=&first_name=&last_name=${tag}`)).json().totalPrisoners).toBe(23);
    const none = (await api('GET', '/prisoner/all?q=nobody-by-this-name')).json();
    expect(none).toEqual({ prisoners: [], currentPage: 1, totalPages: 1, totalPrisoners: 0 });
  });

  it('answers requests made at the same moment as it answers them one by one, per filter, page and caseload; a write is seen by the next request (decision 070)', async () => {
    const tag = unique('Moment');
    const blockA = unique('MA');
    const [cellA, cellB] = [await newCell(30, blockA), await newCell(30, unique('MB'))];
    for (let i = 0; i < 25; i++) {
      await newPrisoner({ last_name: `${tag}${String(i).padStart(2, '0')}`, cell_id: i % 2 ? cellA : cellB, status: i % 3 ? 'On Trial' : 'Incarcerated' });
    }
    const officer = await loginWithCaseload(ctx(), [blockA], 'officer');
    const asks: { url: string; headers?: Record<string, string> }[] = [];
    for (const url of [
      `/prisoner/all?page=1&last_name=${tag}`,
      `/prisoner/all?page=2&last_name=${tag}`,
      `/prisoner/all?page=1&limit=5&last_name=${tag}`,
      `/prisoner/all?page=1&status=Incarcerated&last_name=${tag}`,
    ]) {
      asks.push({ url }, { url, headers: { cookie: officer } });
    }
    const one = (ask: (typeof asks)[number]) => ctx().api('GET', ask.url, undefined, ask.headers ?? {});
    const alone: string[] = [];
    for (const ask of asks) alone.push((await one(ask)).body);
    // Each question asked five times at once, all questions at the same moment.
    const together = await Promise.all(asks.flatMap((ask) => Array.from({ length: 5 }, () => one(ask))));
    together.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body, asks[Math.floor(i / 5)]!.url).toBe(alone[Math.floor(i / 5)]);
    });
    // The officer's answers are his block's only, the administrator's everyone's.
    const officerPage = JSON.parse(alone[1]!) as PrisonerListResponse;
    expect(officerPage.totalPrisoners).toBe(12);
    expect(officerPage.prisoners.every((p) => p.cell_id === cellA)).toBe(true);
    expect((JSON.parse(alone[0]!) as PrisonerListResponse).totalPrisoners).toBe(25);

    // A write, then requests at once: every answer shows it.
    const newest = await newPrisoner({ last_name: `${tag}99`, cell_id: cellA });
    const after = await Promise.all(Array.from({ length: 6 }, (_, i) => one(asks[i % 2]!)));
    for (const res of after) expect(res.json<PrisonerListResponse>().prisoners[0]!.prisoner_id).toBe(newest.prisoner_id);
  });

  it('answers deep pages (read from cached anchors) exactly as a plain OFFSET would, also after a write', async () => {
    const tag = unique('Deep');
    // 2,600 rows, many sharing one created_at to the microsecond: the anchors must keep the tie-break and the
    // microseconds (a JS Date would round them away).
    const rows = Array.from({ length: 2_600 }, (_, i) => ({
      firstName: 'Deep',
      lastName: `${tag} ${i}`,
      status: i % 3 ? 'Incarcerated' : 'Released',
      createdAt: sql`timestamptz '2031-01-01 00:00:00.123456+00' + make_interval(secs => ${Math.floor(i / 7)})`,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await ctx()
        .database.db.insert(prisoners)
        .values(rows.slice(i, i + 500) as never);
    }
    prisonersChanged(); // written behind the service's back

    const expected = async (filter: 'all' | 'released', page: number, limit = 20) => {
      const where = and(
        like(prisoners.lastName, `${tag} %`),
        filter === 'released' ? eq(prisoners.status, 'Released') : undefined,
      );
      const ids = await ctx()
        .database.db.select({ id: prisoners.prisonerId })
        .from(prisoners)
        .where(where)
        .orderBy(desc(prisoners.createdAt), desc(prisoners.prisonerId))
        .limit(limit)
        .offset((page - 1) * limit);
      return ids.map((r) => r.id);
    };
    const listed = async (query: string) => {
      const res = await api('GET', `/prisoner/all?last_name=${encodeURIComponent(tag)}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PrisonerListResponse>();
    };

    for (const page of [1, 49, 50, 51, 52, 100, 101, 130]) {
      const got = await listed(`page=${page}`);
      expect(got.totalPrisoners).toBe(2_600);
      expect(
        got.prisoners.map((p) => p.prisoner_id),
        `page ${page}`,
      ).toEqual(await expected('all', page));
    }
    for (const page of [1, 50, 51, 52, 87]) {
      const got = await listed(`status=Released&page=${page}`);
      expect(
        got.prisoners.map((p) => p.prisoner_id),
        `released page ${page}`,
      ).toEqual(await expected('released', page));
    }
    expect((await listed('page=131')).prisoners).toEqual([]);
    // Anchors are kept per page size.
    for (const page of [2, 300, 372]) {
      const got = await listed(`limit=7&page=${page}`);
      expect(
        got.prisoners.map((p) => p.prisoner_id),
        `7 per page, page ${page}`,
      ).toEqual(await expected('all', page, 7));
    }
    expect((await listed('limit=7&page=373')).prisoners).toEqual([]);

    // A newer prisoner shifts every page by one; the API's own write drops the cached anchors.
    await newPrisoner({ last_name: `${tag} newest` });
    const shifted = await listed('page=51');
    expect(shifted.totalPrisoners).toBe(2_601);
    expect(shifted.prisoners.map((p) => p.prisoner_id)).toEqual(await expected('all', 51));
  });
});
