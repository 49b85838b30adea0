// Duress in one tap on a phone (decision 100): a wing officer, linked in the account dialog to a guard record with a
// tracker in his block's area, taps "Need assistance" (one tap only arms it, the second sends it), sees his alarm with where he is, and sees
// "Responding" live when someone in another browser presses it on the alert; then he stands it down with a note.
import { expect, test, unique, createReadyAccount, loginThroughApi } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedStaff } from './records-helpers';

test.use({ viewport: { width: 390, height: 844 } });

// Far from every other spec's coordinates, so this officer's tracker is nobody's nearest staff.
const CENTRE = { lat: 12.3456, lng: 45.6789 };
const D = 0.0005;

test('an officer raises duress with one tap and its guard, and sees "Responding" pressed in another browser', async ({ api, adminPage, browser, playwright, baseURL }) => {
  const { block } = await seedCell(api);
  const area = await api.put(`/api/v1/blocks/${encodeURIComponent(block)}/area`, {
    data: { points: [[CENTRE.lat - D, CENTRE.lng - D], [CENTRE.lat - D, CENTRE.lng + D], [CENTRE.lat + D, CENTRE.lng + D], [CENTRE.lat + D, CENTRE.lng - D]].map(([lat, lng]) => ({ lat, lng })) },
  });
  expect(area.status(), await area.text()).toBe(200);
  const guard = await seedStaff(api, 'Guard', { first_name: unique('Dara') });
  const device = await api.post('/api/v1/devices', { data: { name: unique('Radio '), staff_id: guard.staff_id, kind: 'phone' } });
  expect(device.status(), await device.text()).toBe(201);
  const deviceId = ((await device.json()) as { id: string }).id;
  const officer = await createReadyAccount(api, playwright, baseURL, {
    username: unique('officer-a-'),
    name: 'Wing Officer A',
    password: 'landing rounds of my own wing',
    role: 'officer',
    blocks: [block],
  });
  // The administrator links the account to the guard's record in the account dialog.
  await adminPage.goto('/profile');
  await adminPage.getByRole('button', { name: `Change role and blocks of ${officer.username}` }).click();
  const accountDialog = adminPage.getByRole('dialog', { name: `Role and blocks of ${officer.username}` });
  await accountDialog.getByLabel('Staff record').selectOption({ label: `Guard: ${guard.first_name} ${guard.last_name} (badge ${guard.badge_number})` });
  await accountDialog.getByRole('button', { name: 'Save' }).click();
  await expect(accountDialog).toHaveCount(0);
  const accounts = (await (await api.get('/api/v1/admins')).json()) as { admins: { id: number; staff_id: number | null }[] };
  expect(accounts.admins.find((a) => a.id === officer.id)?.staff_id).toBe(guard.staff_id);
  try {
    const fix = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat: CENTRE.lat, lon: CENTRE.lng, timestamp: new Date().toISOString() } });
    expect(fix.status(), await fix.text()).toBe(200);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await loginThroughApi(context.request, officer.username, officer.password);
    await page.goto('/');
    const button = page.getByTestId('need-assistance');
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);

    // One tap only arms it (a pocket press sends nothing); the second tap sends it.
    await button.click();
    await expect(button).toHaveAttribute('data-armed', 'true');
    await expect(button).toContainText('Tap again to send');
    await page.waitForTimeout(300);
    expect((await page.request.get('/api/v1/duress/current').then((r) => r.json())).data).toBeNull();
    await button.click();
    const panel = page.getByTestId('duress-panel');
    const text = `Officer ${guard.first_name} ${guard.last_name} needs assistance at Block ${block}`;
    await expect(panel).toContainText(text);
    await expect(panel).toContainText('Nobody has said they are responding yet.');
    await expectNoViolations(page, 'duress panel on a phone');

    // Another account, in another browser, presses Responding on the alert; the officer sees who and when, live.
    await adminPage.goto('/allAlerts?alert_type=Critical&status=New');
    const card = adminPage.getByTestId('alert-card').filter({ hasText: text });
    await expect(card).toContainText(`Staff: ${guard.first_name} ${guard.last_name}`);
    await expect(card).not.toContainText('Prisoner: Unknown');
    await card.getByRole('button', { name: 'Responding' }).click();
    await expect(card.getByTestId('responding-list')).toContainText('Responding: e2e-admin (');
    await expect(panel.getByTestId('responding-list')).toContainText(/Responding: e2e-admin \(\d\d:\d\d(:\d\d)?\)/);

    // He stands it down with a note; the panel goes.
    await panel.getByRole('button', { name: 'Stand down' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stand down your alarm' });
    await dialog.getByLabel('Note (required)').fill('Prisoner calmed down, no injuries');
    await dialog.getByRole('button', { name: 'Stand down' }).click();
    await expect(panel).toHaveCount(0);
    await expect(card).toHaveCount(0);
    await context.close();
  } finally {
    await api.delete(`/api/v1/devices/${encodeURIComponent(deviceId)}`);
  }
});
