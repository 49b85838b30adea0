// Escalation (decision 060) against a real SMTP server (smtp-server) and a real HTTP receiver: an
// unacknowledged Critical gives exactly one email naming the prisoner and one signed webhook, also with two apps on one
// database; an acknowledged one gives none; a receiver that fails twice gets the third try; the test send and the log.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, type AlertDelivery, type AlertRecord, type DeliveryPage } from '@prison/shared';
import { buildApp, type App } from '../../app';
import { fromPostgres, type Database } from '../../db/client';
import { createAdmin } from '../admin/admin-service';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import { startSmtpReceiver, startWebhookReceiver } from '../../../test/escalation-receivers';
import { startTestApp, testConfig, TEST_ADMIN, type TestContext } from '../../../test/test-app';
import { createScratchDatabase, describeEachEngine, describeOnPglite, describeOnPostgres } from '../../../test/test-db';
import { sleep, waitFor } from '../../../test/wait-for';
import { nextAttemptAt } from './retry-policy';
import { alertEmail, signBody, webhookBody } from './escalation-message';

const SECRET = 'a webhook secret of the prison';
const PUBLIC_URL = 'https://control.prison.example/tracker';
const verified = (body: string, header: string | string[] | undefined) =>
  header === `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

const escalationConfig = (smtpUrl: string, webhookUrl: string) => ({
  ESCALATE_AFTER_SECONDS: 1,
  SMTP_URL: smtpUrl,
  ALERT_EMAIL_TO: ['control-room@prison.example'],
  ALERT_EMAIL_FROM: 'Prison Control <alerts@prison.example>',
  ALERT_WEBHOOK_URL: webhookUrl,
  ALERT_WEBHOOK_SECRET: SECRET,
  ESCALATION_RETRY_SECONDS: 0.2,
  PUBLIC_URL: PUBLIC_URL,
});

/** The text of a received mail's body: quoted-printable soft breaks joined and escapes decoded. */
const mailText = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A Critical alert from a prisoner's tracker (POST /alert/all), as an outside system raises one. */
async function raiseCritical(ctx: TestContext, firstName: string, lastName: string): Promise<{ id: number; name: string }> {
  const prisoner = await addPrisoner(ctx, firstName, lastName);
  const device = await addDevice(ctx, { prisoner_id: prisoner.id });
  const res = await ctx.api('POST', '/alert/all', { device_id: device.id, alert_type: 'Critical', details: `SOS pressed by ${prisoner.name}` });
  expect(res.statusCode).toBe(201);
  return { id: res.json<{ id: number }>().id, name: prisoner.name };
}

describe('retry policy and signature', () => {
  const policy = { firstDelayMs: 30_000, retryForMs: 3_600_000 };
  it('doubles the delay, at most 10 minutes apart, and gives up after the hour', () => {
    const first = new Date('2026-11-25T03:00:00Z');
    expect(nextAttemptAt(policy, 1, first, first)!.getTime() - first.getTime()).toBe(30_000);
    expect(nextAttemptAt(policy, 3, first, first)!.getTime() - first.getTime()).toBe(120_000);
    expect(nextAttemptAt(policy, 12, first, first)!.getTime() - first.getTime()).toBe(600_000);
    expect(nextAttemptAt(policy, 8, first, new Date(first.getTime() + 3_300_000))).toBeNull();
    expect(nextAttemptAt({ firstDelayMs: 1, retryForMs: 3_600_000 }, 30, first, first)).toBeNull();
  });
  it('links to the alert only with PUBLIC_URL', () => {
    const alert = { id: 42, prisoner_id: null, details: 'SOS', timestamp: '2026-11-25T03:00:00.000Z', device_id: null } as unknown as AlertRecord;
    expect(alertEmail(alert, 120).text).not.toContain('http');
    expect(alertEmail(alert, 120, 'https://control.example').text).toContain('\nhttps://control.example/alerts?alert=42');
    expect(JSON.parse(webhookBody(alert, 1, new Date())).alert.url).toBeNull();
    expect(JSON.parse(webhookBody(alert, 1, new Date(), 'https://control.example')).alert.url).toBe('https://control.example/alerts?alert=42');
  });
  it('signs the raw body as sha256=HEX', () => {
    expect(signBody('{"a":1}', 'key')).toBe(`sha256=${createHmac('sha256', 'key').update('{"a":1}').digest('hex')}`);
  });
});

describeEachEngine('escalation', (engine) => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    hook = await startWebhookReceiver();
    ctx = await startTestApp(engine, escalationConfig(smtp.url, hook.url));
  }, 60_000);
  afterAll(async () => {
    await ctx?.app.close();
    await ctx?.database.close();
    await smtp?.close();
    await hook?.close();
  });

  it('sends an unacknowledged Critical once by email naming the prisoner and once as a signed webhook; an acknowledged one not at all', async () => {
    const seen = await raiseCritical(ctx, 'Ackd', 'Quickly');
    expect((await ctx.api('POST', `/alert/${seen.id}/acknowledge`, { note: 'On it' })).statusCode).toBe(200);
    const missed = await raiseCritical(ctx, 'Nobody', 'Watching');

    await waitFor('one email and one webhook', () => smtp.mails.length >= 1 && hook.hooks.length >= 1, 10_000);
    await sleep(2_500); // several more sweeps: nothing else may come
    expect(smtp.mails).toHaveLength(1);
    expect(hook.hooks).toHaveLength(1);

    const [mail] = smtp.mails;
    expect(mail!.to).toEqual(['control-room@prison.example']);
    expect(mail!.raw).toContain('Nobody Watching');
    expect(mail!.raw).not.toContain('Ackd Quickly');
    // PUBLIC_URL: the mail and the webhook link to the alert on the Alerts screen.
    const link = `${PUBLIC_URL}/alerts?alert=${missed.id}`;
    expect(mailText(mail!.raw)).toContain(`Acknowledge it on the Alerts screen of Prison Control:\r\n${link}\r\n`);

    const [received] = hook.hooks;
    expect(verified(received!.body, received!.headers['x-signature-256'])).toBe(true);
    const body = JSON.parse(received!.body);
    expect(body).toMatchObject({ event: 'alert.escalated', alert: { id: missed.id, alert_type: 'Critical', url: link }, prisoner: { name: 'Nobody Watching' } });

    const log = (await ctx.api('GET', '/escalation/deliveries')).json<DeliveryPage>();
    const rows = log.data.filter((d) => d.alert_id === missed.id);
    expect(rows.map((d) => [d.channel, d.status, d.attempts]).sort()).toEqual([['email', 'sent', 1], ['webhook', 'sent', 1]]);
    expect(log.data.some((d) => d.alert_id === seen.id)).toBe(false);
    expect(log.settings).toEqual({ escalateAfterSeconds: 1, channels: ['email', 'webhook'] });
  });

  it('sends a test message through each channel at once and logs it', async () => {
    const mailsBefore = smtp.mails.length;
    const hooksBefore = hook.hooks.length;
    const res = await ctx.api('POST', '/escalation/test', {});
    expect(res.statusCode).toBe(200);
    const deliveries = res.json<{ deliveries: AlertDelivery[] }>().deliveries;
    expect(deliveries.map((d) => [d.channel, d.status, d.test])).toEqual([['email', 'sent', true], ['webhook', 'sent', true]]);
    expect(smtp.mails.slice(mailsBefore).map((m) => m.raw.includes('Test message from Prison Control'))).toEqual([true]);
    const test = hook.hooks[hooksBefore]!;
    expect(verified(test.body, test.headers['x-signature-256'])).toBe(true);
    expect(JSON.parse(test.body)).toMatchObject({ event: 'test', alert: null });
    expect((await ctx.api('POST', '/escalation/test', { channel: 'sms' })).statusCode).toBe(400);
  });
});

describeEachEngine('escalation retries', (engine) => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    hook = await startWebhookReceiver(2);
    ctx = await startTestApp(engine, escalationConfig(smtp.url, hook.url));
  }, 60_000);
  afterAll(async () => {
    await ctx?.app.close();
    await ctx?.database.close();
    await smtp?.close();
    await hook?.close();
  });

  it('tries a receiver that failed twice a third time, and logs the last error while retrying', async () => {
    const alert = await raiseCritical(ctx, 'Retry', 'Walker');
    await waitFor('a refused first webhook', () => hook.hooks.length >= 1, 10_000, 20);
    await waitFor('the retry in the log', async () => {
      const log = (await ctx.api('GET', '/escalation/deliveries?status=retrying')).json<DeliveryPage>();
      return log.data.some((d) => d.alert_id === alert.id && d.last_error === 'HTTP 503: busy, try later');
    }, 5_000, 20);
    await waitFor('the third try', () => hook.hooks.length >= 3, 15_000);
    await sleep(1_500);
    expect(hook.hooks.map((h) => h.answered)).toEqual([503, 503, 200]);
    // The same signed body every time, so the receiver can tell a retry from another alert.
    expect(new Set(hook.hooks.map((h) => h.headers['x-delivery-id'])).size).toBe(1);
    expect(hook.hooks.every((h) => verified(h.body, h.headers['x-signature-256']))).toBe(true);
    const log = (await ctx.api('GET', '/escalation/deliveries')).json<DeliveryPage>();
    const webhook = log.data.find((d) => d.alert_id === alert.id && d.channel === 'webhook')!;
    expect(webhook).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(smtp.mails).toHaveLength(1);
  });
});

describeOnPostgres('escalation with two apps on one PostgreSQL database', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const nodes: { app: App; database: Database }[] = [];
  let ctx: TestContext;

  beforeAll(async () => {
    scratch = await createScratchDatabase('prison_escalation');
    smtp = await startSmtpReceiver();
    hook = await startWebhookReceiver();
    for (const node of ['one', 'two']) {
      const database = fromPostgres(scratch.url, 5);
      const app = await buildApp({
        config: testConfig({ ...escalationConfig(smtp.url, hook.url), DATABASE_URL: scratch.url, NODE_NAME: node }),
        database,
        logger: false,
      });
      await app.ready();
      nodes.push({ app, database });
    }
    const [{ app, database }] = nodes as [{ app: App; database: Database }];
    await createAdmin(database.db, TEST_ADMIN);
    const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password } });
    const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
    ctx = {
      app,
      database,
      cookie,
      token: '',
      api: (method, url, payload, headers = {}) =>
        app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as Record<string, unknown>, headers: { cookie, ...headers } }),
    };
  }, 60_000);
  afterAll(async () => {
    for (const { app, database } of nodes) {
      await app.close();
      await database.close();
    }
    await scratch?.drop();
    await smtp?.close();
    await hook?.close();
  });

  it('sends each of six unacknowledged Criticals exactly once per channel while both apps sweep', async () => {
    const raised = [];
    for (let i = 0; i < 6; i++) raised.push(await raiseCritical(ctx, 'Cluster', `Prisoner${i}`));
    await waitFor('six emails and six webhooks', () => smtp.mails.length >= 6 && hook.hooks.length >= 6, 15_000);
    await sleep(2_500);
    expect(smtp.mails).toHaveLength(6);
    expect(hook.hooks).toHaveLength(6);
    const hookedIds = hook.hooks.map((h) => JSON.parse(h.body).alert.id as number).sort((a, b) => a - b);
    expect(hookedIds).toEqual(raised.map((r) => r.id).sort((a, b) => a - b));
    for (const { name } of raised) expect(smtp.mails.filter((m) => m.raw.includes(name))).toHaveLength(1);
    expect(hook.hooks.every((h) => verified(h.body, h.headers['x-signature-256']))).toBe(true);
  });
});

describeOnPglite('escalation after a restart', () => {
  it('sends an alert raised before the process stopped, from the database, once', async () => {
    const smtp = await startSmtpReceiver();
    const hook = await startWebhookReceiver();
    const config = { ...escalationConfig(smtp.url, hook.url), ESCALATE_AFTER_SECONDS: 5 };
    const ctx = await startTestApp('pglite', config);
    let restarted: App | undefined;
    try {
      const alert = await raiseCritical(ctx, 'Before', 'Restart');
      await ctx.app.close(); // stopped before the alert was due: nothing of it is in this process's memory any more
      expect(smtp.mails).toHaveLength(0);
      restarted = await buildApp({ config: testConfig(config), database: ctx.database, logger: false });
      await restarted.ready();
      await waitFor('the email after the restart', () => smtp.mails.length >= 1 && hook.hooks.length >= 1, 15_000);
      await sleep(1_500);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.raw).toContain('Before Restart');
      expect(JSON.parse(hook.hooks[0]!.body).alert.id).toBe(alert.id);
    } finally {
      await restarted?.close();
      await ctx.database.close();
      await smtp.close();
      await hook.close();
    }
  }, 60_000);
});

describe('escalation configuration', () => {
  it('refuses half a channel, naming the missing variable, and reads an empty value as unset', async () => {
    const { loadConfig } = await import('../../config');
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example:587' })).toThrow(/ALERT_EMAIL_TO/);
    expect(() => loadConfig({ ALERT_WEBHOOK_URL: 'https://hooks.example/prison' })).toThrow(/ALERT_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ALERT_WEBHOOK_URL: 'ftp://hooks.example', ALERT_WEBHOOK_SECRET: SECRET })).toThrow(/ALERT_WEBHOOK_URL/);
    expect(() => loadConfig({ SMTP_URL: 'mail.example', ALERT_EMAIL_TO: 'a@b.example' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ ESCALATE_AFTER_SECONDS: '-1' })).toThrow(/ESCALATE_AFTER_SECONDS/);
    const defaults = loadConfig({ ESCALATE_AFTER_SECONDS: '', SMTP_URL: '', ALERT_WEBHOOK_URL: ' ' });
    expect(defaults).toMatchObject({ ESCALATE_AFTER_SECONDS: 120, ESCALATION_RETRY_SECONDS: 30, ESCALATION_RETRY_FOR_SECONDS: 3600 });
    expect(defaults.SMTP_URL).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', ALERT_EMAIL_TO: 'a@b.example, c@d.example' }).ALERT_EMAIL_TO).toEqual(['a@b.example', 'c@d.example']);
  });
});

describeOnPglite('escalation to a receiver that is down', () => {
  it('logs the refusal while retrying, and stops (cancelled) once the alert is acknowledged', async () => {
    const hook = await startWebhookReceiver();
    const downUrl = hook.url;
    await hook.close(); // nothing listens there any more: every try is refused
    const ctx = await startTestApp('pglite', {
      ESCALATE_AFTER_SECONDS: 1,
      ALERT_WEBHOOK_URL: downUrl,
      ALERT_WEBHOOK_SECRET: SECRET,
      ESCALATION_RETRY_SECONDS: 0.5,
    });
    try {
      const alert = await raiseCritical(ctx, 'Down', 'Receiver');
      const row = async () =>
        (await ctx.api('GET', '/escalation/deliveries')).json<DeliveryPage>().data.find((d) => d.alert_id === alert.id);
      await waitFor('a retrying delivery', async () => (await row())?.status === 'retrying', 10_000, 50);
      expect((await row())!.last_error).toMatch(/ECONNREFUSED/);
      expect((await ctx.api('POST', `/alert/${alert.id}/acknowledge`, { note: 'Seen at last' })).statusCode).toBe(200);
      await waitFor('the delivery cancelled', async () => (await row())?.status === 'cancelled', 10_000, 50);
      const cancelled = (await row())!;
      expect(cancelled.last_error).toBe('the alert was acknowledged first');
      await sleep(1_500);
      expect((await row())!.attempts).toBe(cancelled.attempts);
    } finally {
      await ctx.app.close();
      await ctx.database.close();
    }
  }, 60_000);
});
