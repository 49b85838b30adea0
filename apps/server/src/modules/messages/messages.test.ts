import { expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, type LogMessage } from '@prison/shared';
import { alerts, cells, incidents, prisoners } from '../../db/schema';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';

describeEachEngine('control-room log', (engine) => {
  const ctx = useTestApp(engine);

  it('posts a message with its author and lists it newest first, paging back with before', async () => {
    const first = await ctx().api('POST', '/messages', { body: '  Shift handover: block C quiet.  ' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      body: 'Shift handover: block C quiet.',
      author_name: TEST_ADMIN.name,
      author_id: expect.any(Number),
    });
    for (let i = 0; i < 3; i++) await ctx().api('POST', '/messages', { body: `note ${i}` });
    const page = await ctx().api('GET', '/messages?limit=2');
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.messages.map((m: LogMessage) => m.body)).toEqual(['note 2', 'note 1']);
    expect(body.hasMore).toBe(true);
    const older = await ctx().api('GET', `/messages?limit=2&before=${body.messages[1].id}`);
    expect(older.json()).toMatchObject({ hasMore: false });
    expect(older.json().messages.map((m: LogMessage) => m.body)).toEqual(['note 0', 'Shift handover: block C quiet.']);
  });

  it('refuses an empty or too long message and bad paging', async () => {
    for (const payload of [{}, { body: '   ' }, { body: 'x'.repeat(2001) }]) {
      const res = await ctx().api('POST', '/messages', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^body/);
    }
    expect((await ctx().api('POST', '/messages', { body: 'x'.repeat(2000) })).statusCode).toBe(200);
    const bad = await ctx().api('GET', '/messages?before=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^before/);
    expect((await ctx().api('GET', '/messages?limit=101')).statusCode).toBe(400);
  });

  it('gives an entry a type (a note unless said) and links to prisoners, alerts and incidents, named, and lists an entry on each', async () => {
    const db = ctx().database.db;
    const [prisoner] = await db.insert(prisoners).values({ firstName: 'John', lastName: 'Brown', status: 'Incarcerated' }).returning();
    const [alert] = await db
      .insert(alerts)
      .values({ alertType: 'Warning', details: 'Fight on the landing', date: '2026-01-02', timestamp: new Date() })
      .returning();
    const [incident] = await db
      .insert(incidents)
      .values({ prisonerName: 'John Brown', guardName: 'Gale Guard', date: '2026-01-02', time: '10:00', description: 'Fight on the landing', actionTaken: 'Separated' })
      .returning();
    const note = await ctx().api('POST', '/messages', { body: 'Quiet on C' });
    expect(note.json()).toMatchObject({ type: 'note', links: [], reads: [] });
    const res = await ctx().api('POST', '/messages', {
      body: 'Radio: two prisoners fighting on C landing',
      type: 'radio_call',
      prisoner_ids: [prisoner!.prisonerId],
      alert_ids: [alert!.id],
      incident_ids: [incident!.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      type: 'radio_call',
      links: expect.arrayContaining([
        { kind: 'prisoner', id: prisoner!.prisonerId, label: `${prisoner!.prisonNumber} John Brown` },
        { kind: 'alert', id: alert!.id, label: `Warning alert #${alert!.id}: Fight on the landing` },
        { kind: 'incident', id: incident!.id, label: `Incident #${incident!.id}: Fight on the landing` },
      ]),
    });
    for (const filter of [`prisoner_id=${prisoner!.prisonerId}`, `alert_id=${alert!.id}`, `incident_id=${incident!.id}`]) {
      const linked = (await ctx().api('GET', `/messages?${filter}`)).json();
      expect(linked.messages.map((m: LogMessage) => m.id), filter).toEqual([res.json().id]);
    }
    for (const [field, payload] of [
      ['prisoner_ids', { prisoner_ids: [999_999] }],
      ['alert_ids', { alert_ids: [999_999] }],
      ['incident_ids', { incident_ids: [999_999] }],
      ['type', { type: 'gossip' }],
      ['prisoner_ids', { prisoner_ids: Array.from({ length: 21 }, (_, i) => i + 1) }],
    ] as const) {
      const refused = await ctx().api('POST', '/messages', { body: 'linked wrongly', ...payload });
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json().message).toMatch(new RegExp(`^${field}`));
    }
    expect((await ctx().api('GET', '/messages?q=linked wrongly')).json().messages).toEqual([]);
  });

  it('searches by words, type and a date range, bounded and paged; bad input is 400 naming the field', async () => {
    await ctx().api('POST', '/messages', { body: 'Lock-down of B wing at 14:00 (100% of doors)', type: 'lockdown' });
    await ctx().api('POST', '/messages', { body: 'B wing doors open again', type: 'note' });
    const words = (await ctx().api('GET', '/messages?q=B%20WING')).json();
    expect(words.messages.map((m: LogMessage) => m.body)).toEqual(['B wing doors open again', 'Lock-down of B wing at 14:00 (100% of doors)']);
    const typed = (await ctx().api('GET', '/messages?q=b%20wing&type=lockdown')).json();
    expect(typed.messages.map((m: LogMessage) => m.type)).toEqual(['lockdown']);
    // The user's own % is matched literally.
    expect((await ctx().api('GET', '/messages?q=100%25')).json().messages).toHaveLength(1);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const ranged = (await ctx().api('GET', `/messages?q=b%20wing&from=${hourAgo}&to=${inAMinute}&limit=1`)).json();
    expect(ranged).toMatchObject({ hasMore: true });
    expect(ranged.messages).toHaveLength(1);
    expect((await ctx().api('GET', `/messages?q=b%20wing&to=${hourAgo}`)).json().messages).toEqual([]);
    for (const [field, query] of [
      ['type', 'type=gossip'],
      ['q', `q=${'x'.repeat(101)}`],
      ['from', 'from=yesterday'],
      ['to', `from=${inAMinute}&to=${hourAgo}`],
      ['to', 'from=2024-01-01T00:00:00Z&to=2026-01-02T00:00:00Z'],
      ['prisoner_id', 'prisoner_id=abc'],
    ]) {
      const bad = await ctx().api('GET', `/messages?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message, query).toMatch(new RegExp(`^${field}`));
    }
  });

  it('shows a reader only the links its caseload sees, and an entry of a record outside it as unknown', async () => {
    const db = ctx().database.db;
    await db.insert(cells).values([
      { cellId: 'Log-A-1', block: 'Log A', capacity: 4, securityLevel: 'Low' },
      { cellId: 'Log-B-1', block: 'Log B', capacity: 4, securityLevel: 'Low' },
    ]);
    const [inside, outside] = await db
      .insert(prisoners)
      .values([
        { firstName: 'Ann', lastName: 'Insider', status: 'Incarcerated', cellId: 'Log-A-1' },
        { firstName: 'Otto', lastName: 'Outsider', status: 'Incarcerated', cellId: 'Log-B-1' },
      ])
      .returning();
    const posted = await ctx().api('POST', '/messages', { body: 'Both moved to education', prisoner_ids: [inside!.prisonerId, outside!.prisonerId] });
    const officer = await loginWithCaseload(ctx(), ['Log A'], 'officer');
    const asOfficer = (method: string, url: string, payload?: object) =>
      ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload, headers: { cookie: officer } });
    const seen = (await asOfficer('GET', '/messages?q=education')).json().messages;
    expect(seen.map((m: LogMessage) => m.id)).toEqual([posted.json().id]);
    expect(seen[0].links.map((l: { id: number }) => l.id)).toEqual([inside!.prisonerId]);
    expect((await asOfficer('GET', `/messages?prisoner_id=${outside!.prisonerId}`)).statusCode).toBe(404);
    const refused = await asOfficer('POST', '/messages', { body: 'Otto moved', prisoner_ids: [outside!.prisonerId] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`prisoner_ids: no prisoner with id ${outside!.prisonerId}`);
  });

  it('needs a session', async () => {
    expect((await ctx().app.inject({ method: 'GET', url: `${API_PREFIX}/messages` })).statusCode).toBe(401);
    expect(
      (await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/messages`, payload: { body: 'x' } })).statusCode,
    ).toBe(401);
  });

  it('pushes a new message to every connected browser', async () => {
    const { app, cookie } = ctx();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const socket = io(`http://127.0.0.1:${port}`, { extraHeaders: { cookie }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const received = new Promise<LogMessage>((resolve) => socket.on('messagePosted', resolve));
      await ctx().api('POST', '/messages', { body: 'live to every browser' });
      const event = await received;
      expect(event).toMatchObject({ body: 'live to every browser', author_name: TEST_ADMIN.name, type: 'note' });
      // Links name prisoners: each browser reads them through its caseload, never from the event.
      expect(event).not.toHaveProperty('links');
    } finally {
      socket.close();
    }
  });
});
