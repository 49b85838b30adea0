// An incident's page, its workflow step, and "Replay this window" playing three trackers fed
// through the OsmAnd HTTP protocol on the live map's canvas layer, then "Who was near" one of them from the replay: the
// table and the printed report name the same people (the end-to-end check of decision 069).
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';

const FIXES = 30;
type Hook = { layer: { positionOf(id: string): { lat: number; lng: number } | null; size: number }; time: number };

test('opens an incident, moves it on, replays its window with three moving trackers and asks who was near one', async ({ adminPage: page, api }) => {
  // Ninety fixes through the OsmAnd protocol before the screens: more than the default minute on a loaded machine.
  test.setTimeout(240_000);
  const osmand = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}/`;
  const start = Date.now() - 10 * 60_000;
  const people: { prisonerId: number; deviceId: string; name: string }[] = [];
  for (const [i, direction] of [[1, 0], [0, 1], [-1, -1]].entries()) {
    const first = unique(`Rp${i}`);
    const created = await api.post('/api/v1/prisoner/add', { data: { first_name: first, last_name: 'Replay', date_of_birth: '1990-01-01', status: 'Incarcerated' } });
    expect(created.status(), await created.text()).toBe(200);
    const prisonerId = (await created.json()).prisoner_id as number;
    const device = await api.post('/api/v1/devices', { data: { name: `${first} tag`, prisoner_id: prisonerId, kind: 'phone' } });
    expect([200, 201], await device.text()).toContain(device.status());
    const { id: deviceId, secret } = (await device.json()) as { id: string; secret: string };
    // One fix every 10 s over five minutes, each tracker walking its own way (~11 m a fix).
    for (let f = 0; f < FIXES; f++) {
      const fix = await api.get(osmand, {
        params: {
          id: deviceId,
          key: secret,
          lat: 51.5 + direction[0]! * f * 0.0001,
          lon: -0.12 + direction[1]! * f * 0.0001,
          timestamp: Math.floor((start + f * 10_000) / 1000),
        },
      });
      expect(fix.status(), await fix.text()).toBe(200);
    }
    people.push({ prisonerId, deviceId, name: `${first} Replay` });
  }

  const opened = await api.post('/api/v1/incidents', {
    data: {
      description: 'Fight by the gym door',
      window: { from: new Date(start - 30_000).toISOString(), to: new Date(start + FIXES * 10_000).toISOString() },
      prisoner_ids: people.map((p) => p.prisonerId),
    },
  });
  expect(opened.status(), await opened.text()).toBe(200);
  const incidentId = (await opened.json()).id as number;

  // The incident page: reported, then investigating with who and when.
  await page.goto(`/incidents/${incidentId}`);
  await expect(page.getByRole('heading', { name: `Incident #${incidentId}` })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('incident-status')).toHaveText('Reported');
  await page.getByRole('button', { name: 'Start investigating' }).click();
  await expect(page.getByTestId('incident-status')).toHaveText('Investigating', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Status steps' })).toContainText('Investigation started by e2e-admin');
  for (const person of people) await expect(page.getByRole('link', { name: `Who was near ${person.name}` })).toBeVisible();
  await expectNoViolations(page, 'incident page');

  // Replay its window: the three trackers, playing at x60, all move.
  await page.getByRole('link', { name: 'Replay this window' }).click();
  await expect(page.getByRole('heading', { name: 'Replay of everyone' })).toBeVisible({ timeout: 60_000 });
  const trackers = page.getByRole('complementary', { name: 'Trackers' });
  for (const person of people) await expect(trackers.getByRole('button', { name: person.name })).toBeVisible({ timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __replay?: Hook }).__replay !== undefined);
  const positions = () =>
    page.evaluate((ids) => ids.map((id) => (window as unknown as { __replay: Hook }).__replay.layer.positionOf(id)), people.map((p) => p.deviceId));

  await page.getByLabel('Speed').selectOption('60');
  // The first fixes are 30 s into the window: seek there, then play.
  const slider = page.getByRole('slider', { name: 'Replay time' });
  await slider.focus();
  for (let i = 0; i < 31; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await positions()).every((p) => p !== null)).toBe(true);
  const before = await positions();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect
    .poll(async () => {
      const now = await positions();
      return now.every((p, i) => p !== null && (Math.abs(p.lat - before[i]!.lat) > 1e-4 || Math.abs(p.lng - before[i]!.lng) > 1e-4));
    }, { timeout: 20_000 })
    .toBe(true);
  await expect(page.getByTestId('replay-time')).not.toHaveAttribute('data-time', '31000');
  // At the window's end, 10 s after their last fixes, all three are still where they last reported.
  await slider.focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('replay-time')).not.toHaveAttribute('data-time', /^(0|31000)$/);
  await expect.poll(async () => (await positions()).every((p) => p !== null)).toBe(true);

  // A chosen tracker links to the "Who was near" screen for its person over the window.
  await trackers.getByRole('button', { name: people[0]!.name }).click();
  const near = page.getByRole('link', { name: 'Who was near this person' });
  await expect(near).toBeVisible();
  await expect(near).toHaveAttribute('href', new RegExp(`^/investigations/near\\?subject=prisoner%3A${people[0]!.prisonerId}&from=`));
  await expectNoViolations(page, 'replay page');

  // Ask who was near him over the window: the two others stood where he did at the first fix (10 m, the default
  // radius); the table and the printed report name the same two people.
  await near.click();
  await expect(page.getByRole('heading', { name: 'Who was near', exact: true, level: 1 })).toBeVisible({ timeout: 60_000 });
  const table = page.getByTestId('near-table');
  await expect(table.getByRole('row')).toHaveCount(3, { timeout: 30_000 });
  for (const person of people.slice(1)) await expect(table).toContainText(person.name);
  await expect(table).not.toContainText(people[0]!.name);
  await page.emulateMedia({ media: 'print' });
  const printed = page.getByTestId('report-table');
  await expect(printed.getByRole('row')).toHaveCount(3);
  for (const person of people.slice(1)) await expect(printed).toContainText(person.name);
  await expect(page.getByTestId('near-report')).toContainText(`Prisoner #${people[0]!.prisonerId}`);
  await page.emulateMedia({ media: 'screen' });
});
