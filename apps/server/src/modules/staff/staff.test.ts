import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { StaffListResponse, StaffMember } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

describeEachEngine('police officers and guards', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  let badge = 1000;

  async function newStaff(fields: Record<string, unknown> = {}): Promise<StaffMember> {
    const res = await api('POST', '/staff/add', {
      first_name: 'Pat',
      last_name: 'Rolman',
      role: 'Police',
      badge_number: String(++badge),
      rank: 'Sergeant',
      department: 'Patrol',
      contact_info: 'pat@example.org',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('answers an empty list with 200 and correct totals; refuses an unknown role with 400', async () => {
    expect((await api('GET', '/staff/getbyRole/Guard')).json()).toEqual({
      staffMembers: [],
      currentPage: 1,
      totalPages: 1,
      totalStaff: 0,
    });
    const bad = await api('GET', '/staff/getbyRole/Janitor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^role: /);
  });

  it('creates, reads, updates and deletes a staff member, auditing each change', async () => {
    const created = await newStaff({ first_name: 'Olivia' });
    expect(created).toMatchObject({ first_name: 'Olivia', role: 'Police', department: 'Patrol', rank: 'Sergeant' });
    expect((await api('GET', `/staff/${created.staff_id}`)).json()).toEqual(created);

    const updated = await api('PUT', `/staff/update/${created.staff_id}`, {
      ...created,
      last_name: 'Stone',
      department: 'CID',
      contact_info: '',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      staff_id: created.staff_id,
      last_name: 'Stone',
      department: 'CID',
      contact_info: null,
    });

    const removed = await api('DELETE', `/staff/delete/${created.staff_id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'Staff member deleted successfully.' });
    expect((await api('GET', `/staff/${created.staff_id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/staff/delete/${created.staff_id}`)).statusCode).toBe(404);
    expect((await api('PUT', `/staff/update/${created.staff_id}`, { ...created })).statusCode).toBe(404);

    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'staff'), eq(auditLog.entityId, String(created.staff_id)))).orderBy(auditLog.id);
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(audit.find((a) => a.action === 'update')).toMatchObject({
      before: { last_name: 'Rolman' },
      after: { last_name: 'Stone' },
    });
  });

  it.each([
    [{ first_name: '' }, 'first_name'],
    [{ role: 'Janitor' }, 'role'],
    [{ badge_number: '12a' }, 'badge_number'],
    [{ department: 'Traffic' }, 'department'],
  ])('refuses %j with 400 naming the field', async (fields, field) => {
    const res = await api('POST', '/staff/add', {
      first_name: 'Bad',
      last_name: 'Input',
      role: 'Guard',
      badge_number: '555000',
      ...fields,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    expect((await api('GET', '/staff/getbyRole/Guard?badgeNumber=555000')).json().totalStaff).toBe(0);
  });

  it('refuses a badge number already in use with 409, on create and on update', async () => {
    const a = await newStaff();
    const b = await newStaff();
    const dup = await api('POST', '/staff/add', {
      first_name: 'X',
      last_name: 'Y',
      role: 'Guard',
      badge_number: a.badge_number,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ message: `badge_number: ${a.badge_number} is already in use` });
    const steal = await api('PUT', `/staff/update/${b.staff_id}`, { ...b, badge_number: a.badge_number });
    expect(steal.statusCode).toBe(409);
    // Keeping one's own badge is not a conflict.
    expect((await api('PUT', `/staff/update/${a.staff_id}`, { ...a, rank: 'Inspector' })).statusCode).toBe(200);
    // Two creations racing for one badge: one wins, the other gets the same 409.
    const racing = await Promise.all(
      [1, 2].map((i) =>
        api('POST', '/staff/add', { first_name: `R${i}`, last_name: 'Race', role: 'Police', badge_number: '777777' }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(racing.find((r) => r.statusCode === 409)!.json()).toEqual({
      message: 'badge_number: 777777 is already in use',
    });
  });

  it('pages guards newest first with correct totals and filters on the server (the guard "role" filter reads rank)', async () => {
    const made: StaffMember[] = [];
    for (let i = 0; i < 23; i++) {
      made.push(
        await newStaff({
          role: 'Guard',
          first_name: i % 3 === 0 ? 'Gina' : 'Gary',
          last_name: `Warden${i}`,
          rank: i < 4 ? 'Supervisor' : 'Security',
          department: null,
          badge_number: String(880000 + i),
        }),
      );
    }
    await newStaff({ role: 'Police', first_name: 'Gina', department: 'SWAT' });
    const page1: StaffListResponse = (await api('GET', '/staff/getbyRole/Guard?page=1')).json();
    expect(page1).toMatchObject({ currentPage: 1, totalPages: 2, totalStaff: 23 });
    expect(page1.staffMembers).toHaveLength(20);
    expect(page1.staffMembers[0]!.staff_id).toBe(made[22]!.staff_id);
    expect(page1.staffMembers.every((s) => s.role === 'Guard')).toBe(true);
    const page2: StaffListResponse = (await api('GET', '/staff/getbyRole/Guard?page=2')).json();
    expect(page2.staffMembers.map((s) => s.staff_id)).toEqual(
      made
        .slice(0, 3)
        .reverse()
        .map((s) => s.staff_id),
    );

    const q = async (query: string) =>
      ((await api('GET', `/staff/getbyRole/Guard?${query}`)).json() as StaffListResponse).totalStaff;
    expect(await q('rank=Supervisor')).toBe(4);
    expect(await q('rank=security')).toBe(19);
    expect(await q('firstName=gin')).toBe(8);
    expect(await q('firstName=ina')).toBe(0); // from the start of the name
    expect(await q('firstName=Gina&rank=Supervisor')).toBe(2);
    expect(await q('lastName=warden2')).toBe(4); // Warden2, Warden20, 21, 22
    expect(await q('badgeNumber=88001')).toBe(10);
    expect(await q('q=warden1')).toBe(11);
    expect(await q('q=gina%20warden3')).toBe(1);
    expect(await q('department=&rank=&q=')).toBe(23);
    expect((await api('GET', '/staff/getbyRole/Guard?badgeNumber=abc')).statusCode).toBe(400);
    expect((await api('GET', '/staff/getbyRole/Guard?department=Traffic')).statusCode).toBe(400);
    const swat = (await api('GET', '/staff/getbyRole/Police?department=SWAT')).json() as StaffListResponse;
    expect(swat.staffMembers.map((s) => s.first_name)).toEqual(['Gina']);
  });

  it('answers 400 for a bad id and 404 for an unknown one', async () => {
    expect((await api('GET', '/staff/abc')).statusCode).toBe(400);
    const res = await api('GET', '/staff/424242');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Staff member 424242 not found' });
  });
});
