// An incident's links: while it is open, more people and alerts are linked from its page ("Link
// more": a prisoner and a staff member found by name, an alert by its number), and a link made by mistake is taken back
// after confirming; a closed incident keeps its links (no Remove, no form) until it is reopened.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedPrisoner, seedStaff } from './records-helpers';

test('links more people and an alert from the incident page, and takes a mistaken link back', async ({ adminPage: page, api }) => {
  const last = unique('Linked');
  const wrong = await seedPrisoner(api, { first_name: 'Wrong', last_name: last, status: 'Incarcerated' });
  const right = await seedPrisoner(api, { first_name: 'Right', last_name: last, status: 'Incarcerated' });
  const officer = await seedStaff(api, 'Guard', { first_name: 'Ward', last_name: last });
  const raised = await api.post('/api/v1/alert/all', { data: { alert_type: 'Informational', details: `Seen by the gate ${last}` } });
  expect(raised.status(), await raised.text()).toBe(201);
  const alertId = ((await raised.json()) as { id: number }).id;
  const now = Date.now();
  const opened = await api.post('/api/v1/incidents', {
    data: { description: `Fight ${last}`, window: { from: new Date(now - 3_600_000).toISOString(), to: new Date(now).toISOString() }, prisoner_ids: [wrong.prisoner_id] },
  });
  expect(opened.status(), await opened.text()).toBe(200);
  const incidentId = ((await opened.json()) as { id: number }).id;

  await page.goto(`/incidents/${incidentId}`);
  const people = page.getByRole('region', { name: 'Linked people' });
  await expect(people).toContainText(`Wrong ${last}`);

  // Link the right prisoner and the officer, found by their last name, and the alert by its number.
  const form = page.getByRole('form', { name: 'Link more' });
  await form.getByLabel('Search people').fill(last);
  await expect(form.getByLabel('Prisoner').locator('option', { hasText: `Right ${last}` })).toHaveCount(1);
  await form.getByLabel('Prisoner').selectOption({ label: `Right ${last} · #${right.prisoner_id}` });
  await expect(form.getByLabel('Staff member').locator('option', { hasText: `Ward ${last}` })).toHaveCount(1);
  await form.getByLabel('Staff member').selectOption(String(officer.staff_id));
  await form.getByLabel('Alert number').fill(String(alertId));
  await form.getByRole('button', { name: 'Link' }).click();
  await expect(people).toContainText(`Right ${last}`);
  await expect(people).toContainText(`Ward ${last} (Staff)`);
  await expect(page.getByRole('region', { name: 'Linked alerts' })).toContainText(`#${alertId} Informational: Seen by the gate ${last}`);
  await expect(form.getByLabel('Alert number')).toHaveValue('');
  await expectNoViolations(page, 'incident page, links');

  // A number that is no alert: the server's answer, nothing linked.
  await form.getByLabel('Alert number').fill('987654321');
  await form.getByRole('button', { name: 'Link' }).click();
  await expect(form).toContainText('no alert with id 987654321');

  // The mistaken link, after confirming.
  await people.getByRole('button', { name: `Remove the link to Wrong ${last}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove a link' });
  await expect(dialog).toContainText(`Remove the link to Wrong ${last} from incident #${incidentId}?`);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(people).not.toContainText(`Wrong ${last}`);
  await expect(people).toContainText(`Right ${last}`);

  // Closed: the links stay, nothing to remove or add until it is reopened.
  await page.getByRole('button', { name: 'Start investigating' }).click();
  await expect(page.getByTestId('incident-status')).toHaveText('Investigating');
  await page.getByRole('button', { name: 'Close the incident' }).click();
  await expect(page.getByTestId('incident-status')).toHaveText('Closed');
  await expect(people.getByRole('button', { name: /^Remove the link/ })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Link more' })).toHaveCount(0);
});
