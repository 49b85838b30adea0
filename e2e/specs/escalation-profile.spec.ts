// Alert escalation on /profile (decision 060): on a server of its own configured with a real SMTP
// server (smtp-server) and a real webhook receiver started here, an administrator sends a test message and sees it in
// the delivery log; an unacknowledged Critical then appears there as sent by email and webhook, naming the prisoner.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpReceiver, startWebhookReceiver } from '../../apps/server/test/escalation-receivers';
import { E2E_ADMIN, expect, loginThroughForm, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

const port = Number(process.env.E2E_PORT ?? 3210) + 30;
const base = `http://localhost:${port}`;

let server: ChildProcess | undefined;
let dataDir = '';
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  smtp = await startSmtpReceiver();
  hook = await startWebhookReceiver();
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-escalation-'));
  server = spawnOwnServer(port, dataDir, {
    ESCALATE_AFTER_SECONDS: '2',
    SMTP_URL: smtp.url,
    ALERT_EMAIL_TO: 'duty-governor@prison.example',
    ALERT_WEBHOOK_URL: hook.url,
    ALERT_WEBHOOK_SECRET: 'the e2e webhook secret',
  });
  await waitReady(base, server);
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir, 10_000);
  await smtp?.close();
  await hook?.close();
});

test.use({ viewport: { width: 1440, height: 900 } });

test('an administrator sends a test message and sees an unacknowledged Critical escalated in the log', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL: base });
  const login = await api.post('/api/v1/admin/login', { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } });
  expect(login.status(), await login.text()).toBe(200);

  await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, `${base}/login`);
  await expect(page).toHaveURL(`${base}/`);
  await page.goto(`${base}/profile`);

  const section = page.getByRole('region', { name: 'Alert escalation' });
  await expect(section.getByTestId('escalation-settings')).toHaveText(
    'A Critical alert not acknowledged within 2 seconds is sent by email and webhook.',
  );
  await section.getByRole('button', { name: 'Send test message' }).click();
  await expect(section.getByTestId('escalation-test-result')).toHaveText('email: sent, webhook: sent');
  await expect(section.getByTestId('delivery-row').filter({ hasText: 'Test message' })).toHaveCount(2);
  expect(smtp!.mails).toHaveLength(1);
  expect(hook!.hooks).toHaveLength(1);

  const lastName = unique('Escalated');
  const prisoner = await seedTrackedPrisoner(api, { first_name: 'Night', last_name: lastName });
  const raised = await api.post('/api/v1/alert/all', {
    data: { device_id: prisoner.deviceId, alert_type: 'Critical', details: 'SOS pressed in the workshop' },
  });
  expect(raised.status(), await raised.text()).toBe(201);

  // The log refreshes every 10 s while open; a reload shows it at once.
  await expect
    .poll(async () => smtp!.mails.length + hook!.hooks.length, { timeout: 20_000 })
    .toBe(4);
  await page.reload();
  const rows = section.getByTestId('delivery-row').filter({ hasText: `Night ${lastName}` });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'sent' })).toHaveCount(2);
  expect(smtp!.mails[1]!.raw).toContain(`Night ${lastName}`);
  await expectNoViolations(page, 'profile with the escalation log');
  // On a phone the log scrolls inside its own box; the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rows.first()).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await api.dispose();
});
