// Replay that tells: a Critical and an Informational alert 4 s apart in the replay window sit in
// their own lanes, the Critical mark is clicked and the clock jumps to it, and the marker is red at that moment with
// the people list naming the prisoner with his prison number, cell and the open Critical alert.
import { expect, test, unique, walkTracker } from '../fixtures';
import { expectNoViolations } from './axe';

type Hook = { layer: { levelOf(id: string): string | null } };

test("replay's Critical mark is clickable where an Informational one is 4 s later, and colours the marker red", async ({ adminPage: page, api }) => {
  test.setTimeout(120_000);
  const firstName = unique('Tell');
  const created = await api.post('/api/v1/prisoner/add', {
    data: { first_name: firstName, last_name: 'Breach', date_of_birth: '1990-03-04', status: 'Incarcerated' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const prisonerId = (await created.json()).prisoner_id as number;
  const device = await api.post('/api/v1/devices', { data: { name: `${firstName} tag`, prisoner_id: prisonerId, kind: 'phone' } });
  expect([200, 201], await device.text()).toContain(device.status());
  const { id: deviceId, secret } = (await device.json()) as { id: string; secret: string };

  // One fix a minute for ten minutes; the alerts at the fifth minute, 4 s apart.
  const start = Math.floor(Date.now() / 1000) * 1000 - 20 * 60_000;
  await walkTracker(api, { id: deviceId, secret }, start, 10);
  const criticalAt = start + 5 * 60_000;
  for (const [alertType, at, details] of [
    ['Critical', criticalAt, `${firstName} went over the wall`],
    ['Informational', criticalAt + 4000, `${firstName} tag battery low`],
  ] as const) {
    const alert = await api.post('/api/v1/alert/all', {
      data: { device_id: deviceId, alert_type: alertType, details, timestamp: new Date(at).toISOString().slice(0, 19).replace('T', ' ') },
    });
    expect([200, 201], await alert.text()).toContain(alert.status());
  }

  const from = start - 60_000;
  const to = start + 11 * 60_000;
  await page.goto(`/replay?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&prisoner_ids=${prisonerId}`);
  await expect(page.getByRole('heading', { name: 'Replay of everyone' })).toBeVisible({ timeout: 60_000 });
  const timeline = page.getByRole('group', { name: 'Alerts on the timeline' });
  await expect(timeline).toBeVisible({ timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __replay?: Hook }).__replay !== undefined);
  // Before the alerts (and before his first fix, so no marker yet): nothing open.
  const person = page.getByRole('complementary', { name: 'Trackers' }).getByRole('listitem').filter({ hasText: firstName });
  await expect(person).toHaveAttribute('data-level', 'none');

  // Critical lane above the Informational one.
  const critical = timeline.getByRole('list', { name: 'Critical alerts on the timeline' }).getByRole('button', { name: /went over the wall/ });
  const informational = timeline.getByRole('list', { name: 'Informational alerts on the timeline' }).getByRole('button', { name: /battery low/ });
  await expect(critical).toHaveAccessibleName(/^Critical alert at .+: .+ went over the wall$/);
  const [criticalBox, infoBox] = [await critical.boundingBox(), await informational.boundingBox()];
  expect(criticalBox!.y + criticalBox!.height).toBeLessThanOrEqual(infoBox!.y);
  expect(criticalBox!.width).toBeGreaterThanOrEqual(24);
  expect(criticalBox!.height).toBeGreaterThanOrEqual(24);

  // A real click (Playwright refuses one on a covered element): the clock jumps to the Critical alert.
  await critical.click();
  await expect.poll(async () => Number(await page.getByTestId('replay-time').getAttribute('data-time'))).toBe(criticalAt - from);
  await expect
    .poll(() => page.evaluate((id) => (window as unknown as { __replay: Hook }).__replay.layer.levelOf(id), deviceId))
    .toBe('critical');
  await expect(person).toHaveCount(1);
  await expect(person).toContainText(/\S+ · no cell/);
  await expect(person).toContainText('Critical alert open');
  await expect(person).toHaveAttribute('data-level', 'critical');

  // The Informational mark jumps too; the Critical (still open) keeps the marker red.
  await informational.click();
  await expect.poll(async () => Number(await page.getByTestId('replay-time').getAttribute('data-time'))).toBe(criticalAt + 4000 - from);
  expect(await page.evaluate((id) => (window as unknown as { __replay: Hook }).__replay.layer.levelOf(id), deviceId)).toBe('critical');
  await expectNoViolations(page, 'replay with alert lanes');
});
