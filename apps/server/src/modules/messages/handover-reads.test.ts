// Handovers confirmed read: an account logging in after a handover entry is asked to confirm it until it does; the
// writer, an account already logged in before it and the entries of other types ask nothing; confirmations are kept
// (who, when), shown on the entry, audited once.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { API_PREFIX, type LogMessage } from '@prison/shared';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';

describeEachEngine('handovers confirmed read', (engine) => {
  const ctx = useTestApp(engine);

  const as = (cookie: string) => (method: string, url: string, payload?: object) =>
    ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload, headers: { cookie } });

  it('asks every account logging in after a handover to confirm it until it does, and shows who confirmed and when', async () => {
    const earlyShift = as(await loginWithCaseload(ctx(), [], 'operator'));
    const handover = (await ctx().api('POST', '/messages', { body: 'Handover: C wing quiet, A0012 on watch', type: 'handover' })).json<LogMessage>();
    await ctx().api('POST', '/messages', { body: 'Just a note', type: 'note' });

    // The writer and an account whose login came before the handover owe nothing.
    expect((await ctx().api('GET', '/messages/handovers/pending')).json()).toEqual({ messages: [], total: 0 });
    expect((await earlyShift('GET', '/messages/handovers/pending')).json()).toEqual({ messages: [], total: 0 });

    // The next shift: an officer and an auditor log in after it.
    for (const role of ['officer', 'auditor'] as const) {
      const next = as(await loginWithCaseload(ctx(), role === 'officer' ? ['Any Block'] : [], role));
      const pending = (await next('GET', '/messages/handovers/pending')).json();
      expect(pending.total, role).toBe(1);
      expect(pending.messages[0]).toMatchObject({ id: handover.id, type: 'handover', author_name: TEST_ADMIN.name });
      const confirmed = await next('POST', `/messages/${handover.id}/read`);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await next('GET', '/messages/handovers/pending')).json()).toEqual({ messages: [], total: 0 });
      // A second confirmation keeps the first time.
      const first = confirmed.json<LogMessage>().reads.at(-1)!;
      const again = (await next('POST', `/messages/${handover.id}/read`)).json<LogMessage>();
      expect(again.reads.at(-1)).toEqual(first);
    }

    const entry = (await ctx().api('GET', '/messages?type=handover')).json().messages[0] as LogMessage;
    expect(entry.reads).toHaveLength(2);
    for (const read of entry.reads) expect(read).toMatchObject({ admin_id: expect.any(Number), name: expect.stringMatching(/^caseload-/), at: expect.stringMatching(/Z$/) });
    const audited = (await ctx().api('GET', `/audit?action=message.read&entity=message`)).json();
    expect(audited.total).toBe(2);
  });

  it('forgets handovers more than a day older than the login, and refuses to confirm what is no handover', async () => {
    const old = (await ctx().api('POST', '/messages', { body: 'Handover from two days ago', type: 'handover' })).json<LogMessage>();
    await ctx().database.db.execute(sql`update messages set created_at = now() - interval '2 days' where id = ${old.id}`);
    const next = as(await loginWithCaseload(ctx(), [], 'supervisor'));
    const pending = (await next('GET', '/messages/handovers/pending')).json();
    expect(pending.messages.map((m: LogMessage) => m.id)).not.toContain(old.id);

    const note = (await ctx().api('POST', '/messages', { body: 'Not a handover' })).json<LogMessage>();
    const refused = await next('POST', `/messages/${note.id}/read`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^id/);
    expect((await next('POST', '/messages/999999/read')).statusCode).toBe(404);
    expect((await next('POST', '/messages/abc/read')).json().message).toMatch(/^id/);
  });
});
