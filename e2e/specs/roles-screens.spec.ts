// The screens follow the role (decision 053): an auditor's dashboard, prisoner details, live map,
// alerts and communication screens offer no write control, the top bar names the role, and a write sent anyway from
// the auditor's own session is refused with 403 and changes nothing; an operator reads "You do not have access to
// this page" at /audit and has no Audit in the menu, also on a phone; a wing officer's menu leads with his daily tools
// (decision 102).
import type { APIRequestContext, Page } from '@playwright/test';
// roles.ts alone: the package's index pulls in a JSON import Playwright's loader refuses.
import { NO_ACCESS_MESSAGE } from '../../packages/shared/src/roles';
import { createReadyAccount, expect, test, unique } from '../fixtures';
import { seedTrackedPrisoner } from './records-helpers';

/** A tracked prisoner with an open Critical SOS alert: it shows on every screen that can act on alerts. */
async function prisonerWithOpenAlert(api: APIRequestContext) {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Role'), last_name: 'Watched' });
  const sos = await api.get('/api/v1/ingest/osmand', {
    params: {
      id: prisoner.deviceId,
      lat: 51.5007,
      lon: -0.1246,
      timestamp: Math.floor(Date.now() / 1000),
      alarm: 'sos',
    },
  });
  expect(sos.status(), await sos.text()).toBe(200);
  return prisoner;
}

async function logIn(page: Page, username: string, password: string) {
  const res = await page.request.post('/api/v1/admin/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toMatchObject({ passwordChangeRequired: false });
}

/** No button or link of these names anywhere on the page. */
async function expectNone(page: Page, names: (string | RegExp)[]) {
  for (const name of names) {
    await expect(page.getByRole('button', { name }), String(name)).toHaveCount(0);
    await expect(page.getByRole('link', { name }), String(name)).toHaveCount(0);
  }
}

test("an auditor's screens offer no write control, and a write from the auditor's session is refused", async ({
  api,
  browser,
  playwright,
  baseURL,
}) => {
  const prisoner = await prisonerWithOpenAlert(api);
  const auditor = await createReadyAccount(api, playwright, baseURL, {
    username: unique('auditor'),
    name: 'Ada Auditor',
    password: 'reads everything, changes nothing',
    role: 'auditor',
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, auditor.username, auditor.password);
  const fullName = `${prisoner.first_name} ${prisoner.last_name}`;

  // The top bar names the role and counts the open Criticals; an auditor, who cannot act on one, gets no Critical bar
  // (decision 105).
  await page.goto('/dashboard');
  await expect(page.getByTestId('admin-role')).toHaveText('Auditor');
  await expect(page.getByTestId('open-alert-counts').locator('[data-level="Critical"]')).not.toHaveText(/^0/);
  await expect(page.getByTestId('critical-alert-bar')).toHaveCount(0);

  // Dashboard: no create; a prisoner's row menu offers More Details only.
  await page.getByRole('searchbox').first().fill(prisoner.first_name);
  const row = page.getByRole('row').filter({ hasText: prisoner.first_name });
  await expect(row).toHaveCount(1);
  await expectNone(page, ['Create New Prisoner']);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await expect(page.getByRole('menuitem', { name: 'More Details' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  for (const tab of ['Police', 'Guards']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('button', { name: /^Create/ })).toHaveCount(0);
  }

  // Prisoner details: the record, its live picture and open alert, and no control to change any of it.
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  await expect(page.getByRole('heading', { name: fullName })).toBeVisible();
  await expect(page.getByTestId('tracking-device-id')).toHaveText(prisoner.deviceId);
  await expect(page.getByTestId('keep-apart')).toBeVisible();
  await expect(page.getByTestId('escort')).toBeVisible();
  await expect(page.getByTestId('escort-none')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Open alerts of this prisoner' }).getByRole('listitem')).not.toHaveCount(
    0,
  );
  await expectNone(page, [
    'Edit prisoner details',
    'Edit Behavior Remarks',
    'Edit Medical History',
    'Assign device',
    'Change device',
    'Add keep-apart',
    'Start escort',
    'Acknowledge',
    'Resolve',
    'Restore',
  ]);
  await expect(page.getByRole('form', { name: 'Start an escort' })).toHaveCount(0);

  // Live map: no drawing tools, no typed shape, no geofence editor, no Acknowledge in the marker's popup.
  await page.goto('/live-map');
  const map = page.getByTestId('live-map');
  await expect(map).toBeVisible();
  await expect(page.getByTestId('live-map-panel').getByText(fullName).first()).toBeVisible();
  await expect(map.locator('.leaflet-pm-toolbar')).toHaveCount(0);
  await expectNone(page, ['Enter coordinates', 'Save Changes', 'Delete Geofence', 'Approve', 'Acknowledge']);
  await page.goto(`/live-map?device=${encodeURIComponent(prisoner.deviceId)}`);
  await expect(page.getByTestId('marker-popup-alert').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);

  // Alerts: the alert, and no Acknowledge, Resolve, bulk bar or selection boxes.
  await page.goto('/allAlerts');
  await expect(page.getByRole('list', { name: 'Alerts' }).getByText(fullName).first()).toBeVisible();
  await expectNone(page, ['Acknowledge', 'Resolve', 'Acknowledge selected', 'Resolve selected']);
  await expect(page.getByRole('list', { name: 'Alerts' }).getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByTestId('alert-workflow-actions')).toHaveCount(0);

  // Communication: the log, no composer.
  await page.goto('/communication');
  await expect(page.getByRole('heading', { name: 'Control-room log' })).toBeVisible();
  await expect(page.getByLabel('New log entry')).toHaveCount(0);
  await expectNone(page, ['Post']);

  // The audit trail is the auditor's to read; the accounts section is not there.
  await page.goto('/audit');
  await expect(page.getByText(NO_ACCESS_MESSAGE)).toHaveCount(0);
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Active sessions' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Accounts' })).toHaveCount(0);
  // The escalation delivery log is the auditor's to read (decision 060); the test send is not.
  await expect(page.getByRole('region', { name: 'Alert escalation' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send test message' })).toHaveCount(0);

  // A write sent anyway from this session is refused, naming the role, and changes nothing.
  const text = unique('auditor wrote ');
  const post = await page.request.post('/api/v1/messages', { data: { body: text } });
  expect(post.status(), await post.text()).toBe(403);
  expect(((await post.json()) as { message: string }).message).toMatch(/Auditor/);
  const log = await api.get('/api/v1/messages');
  expect(await log.text()).not.toContain(text);
  const edit = await page.request.put(`/api/v1/prisoner/update/${prisoner.prisoner_id}`, {
    data: { first_name: 'Changed', last_name: 'ByAuditor', date_of_birth: '1980-01-01' },
  });
  expect(edit.status(), await edit.text()).toBe(403);
  const after = await api.get(`/api/v1/prisoner/prisonerid/${prisoner.prisoner_id}`);
  expect(((await after.json()) as { data: { first_name: string } }).data.first_name).toBe(prisoner.first_name);
  await context.close();
});

test('an operator reads "You do not have access to this page" at /audit and has no Audit in the menu, also on a phone', async ({
  api,
  browser,
  playwright,
  baseURL,
}) => {
  const operator = await createReadyAccount(api, playwright, baseURL, {
    username: unique('operator'),
    name: 'Otto Operator',
    password: 'watches the control room',
    role: 'operator',
  });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await logIn(page, operator.username, operator.password);
  await page.goto('/audit');
  await expect(page.getByTestId('no-access')).toHaveText(NO_ACCESS_MESSAGE);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByRole('link', { name: 'Live Map' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await expect(menu.getByTestId('admin-role-menu')).toHaveText('Control room operator');
  // The page fits the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test("a wing officer's menu puts Counts, Checks, Movements and Map first, at 390 px and at 1440 px, and hides what he cannot do", async ({
  api,
  browser,
  playwright,
  baseURL,
}) => {
  const block = unique('W');
  const cell = await api.post('/api/v1/cell_controls/cells', { data: { cell_id: unique('W-'), block, capacity: 2, security_level: 'Low' } });
  expect(cell.status(), await cell.text()).toBe(200);
  const officer = await createReadyAccount(api, playwright, baseURL, {
    username: unique('officer'),
    name: 'Wanda Wing',
    password: 'my rounds on the landing',
    role: 'officer',
    blocks: [block],
  });
  const daily = ['Counts', 'Checks', 'Movements', 'Live Map'];

  // A phone: the menu opens on his daily tools, each a 44 px target; no Readers or Audit.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await phone.newPage();
  await logIn(page, officer.username, officer.password);
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  const links = menu.getByRole('link');
  await expect(links.first()).toBeVisible();
  expect((await links.allInnerTexts()).slice(0, 4)).toEqual(daily);
  for (const target of (await links.all()).slice(0, 4)) expect((await target.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  await expect(menu.getByRole('link', { name: 'Readers' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await menu.getByRole('link', { name: 'Checks' }).click();
  await expect(page.getByRole('heading', { name: 'Observation checks' })).toBeVisible();
  await phone.close();

  // A desktop: the same four lead the top line, which stays one line.
  const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const wide = await desktop.newPage();
  await logIn(wide, officer.username, officer.password);
  await wide.goto('/');
  const nav = wide.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  expect((await nav.getByRole('link').allInnerTexts()).slice(0, 4)).toEqual(daily);
  expect((await nav.boundingBox())?.height ?? 0).toBeLessThan(44);
  await desktop.close();
});
