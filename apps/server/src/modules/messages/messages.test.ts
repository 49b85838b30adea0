import { expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, type LogMessage } from '@prison/shared';
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
      expect(await received).toMatchObject({ body: 'live to every browser', author_name: TEST_ADMIN.name });
    } finally {
      socket.close();
    }
  });
});
