import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Incident } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

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
});
