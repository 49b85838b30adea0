// Weakening an alarm takes two people (decision 041), in the browser: the geofence dialog explains
// each type in plain words, asks for a reason before lowering the alert level, shows the change as pending (the
// requester cannot approve it), and a second administrator approves it from "Pending approvals" on the live map.
import { deleteGeofenceApproved, E2E_ADMIN, E2E_APPROVER, expect, loginThroughApi, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { listGeofences } from './map-helpers';

test('lowering the Perimeter to Informational asks for a reason, waits, and a second administrator approves it', async ({
  adminPage: page,
  api,
  secondApi,
  browser,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = unique('Perimeter ');
  const geofenceId = crypto.randomUUID();
  const added = await api.post('/api/v1/geofence/add', {
    data: {
      geofence_id: geofenceId,
      shape: 'Circle',
      name,
      type: 'Negative',
      alert_type: 'Critical',
      radius: 400,
      center_lat: 51.47 + Math.random() * 0.004,
      center_lng: -0.16 + Math.random() * 0.004,
    },
  });
  expect(added.status(), await added.text()).toBe(200);

  try {
    await page.goto('/live-map');
    const map = page.getByTestId('live-map');
    // Drawn in its level's colour: Critical red.
    await expect(map.locator('path.geofence-level-critical[stroke="#dc2626"]').first()).toBeVisible();
    await page.getByTestId('geofence-item').filter({ hasText: name }).click();
    const editor = page.getByTestId('geofence-editor');
    // Each type in plain words beside the spec's terms.
    await expect(editor.getByTestId('geofence-type-meanings')).toContainText('Positive: alert when a prisoner is inside');
    await expect(editor.getByTestId('geofence-type-meanings')).toContainText('Negative: alert when a prisoner is outside');

    // Lowering the level: the notice and the reason appear before saving.
    await expect(editor.getByTestId('weakening-notice')).toHaveCount(0);
    await editor.getByLabel('Alert Type').selectOption('Informational');
    const notice = editor.getByTestId('weakening-notice');
    await expect(notice).toContainText("This weakens the alarm and needs a second person's approval");
    await expect(notice).toContainText('Alert level: Critical → Informational');
    await expectNoViolations(page, 'a weakening change asking for a reason');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect(notice).toContainText('Reason is required');
    await notice.getByLabel('Reason').fill('Night drill: the outer fence is patrolled');
    // A Critical zone's weakening ends by itself (decision 091): the end time is asked, 8 hours ahead by default.
    await expect(notice.getByLabel('Ends at')).not.toHaveValue('');
    await editor.getByRole('button', { name: 'Save Changes' }).click();

    // Pending: the geofence stays Critical; the requester sees who asked and why, and cannot approve.
    const pending = editor.getByTestId('pending-change');
    await expect(pending).toContainText('Change pending approval');
    await expect(pending).toContainText('Night drill: the outer fence is patrolled');
    await expect(pending).toContainText('Alert level: Critical → Informational');
    await expect(pending).toContainText('another administrator must approve it');
    await expect(pending).toContainText('Ends by itself:');
    await expect(pending.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toContainText('Change pending approval');
    expect((await listGeofences(api)).find((g) => g.geofence_id === geofenceId)).toMatchObject({ alert_type: 'Critical' });

    // A second administrator approves it from "Pending approvals" on the live map.
    // The run's approver: an administrator the requester did not make (decision 091).
    const second = E2E_APPROVER;
    const context = await browser.newContext();
    await loginThroughApi(context.request, second.username, second.password);
    const approverPage = await context.newPage();
    await approverPage.goto('/live-map');
    const approvals = approverPage.getByTestId('pending-approvals');
    const change = approvals.getByTestId('pending-change').filter({ hasText: name });
    await expect(change).toContainText('Night drill: the outer fence is patrolled');
    await expectNoViolations(approverPage, 'pending approvals');
    await change.getByRole('button', { name: 'Approve' }).click();
    await expect(change).toHaveCount(0);
    await context.close();

    // Applied: Informational, drawn blue, on the requester's screen too (the socket says so).
    await expect(pending).toHaveCount(0);
    await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toContainText('Informational');
    await expect(map.locator('path.geofence-level-informational[stroke="#2563eb"]').first()).toBeVisible();
    expect((await listGeofences(api)).find((g) => g.geofence_id === geofenceId)).toMatchObject({
      alert_type: 'Informational',
    });
    // While it is weakened every staff screen says so, under the top bar: the zone, who asked, who approved, until when.
    const banner = page.getByTestId('weakened-zone-banner');
    await expect(banner).toContainText(`Critical zone ${name} weakened: asked by ${E2E_ADMIN.username}, approved by ${E2E_APPROVER.username}, until`);
    await page.goto('/cell-assign');
    await expect(banner).toContainText(`Critical zone ${name} weakened`);
    await expectNoViolations(page, 'the weakened zone banner');
    expect(errors).toEqual([]);
  } finally {
    await deleteGeofenceApproved(api, secondApi, geofenceId);
  }
});
