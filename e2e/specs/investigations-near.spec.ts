// Who was near: fixes through the real OsmAnd protocol, the screen opened the way the incident page links
// to it; the table, the CSV download and the printed report name the same people; contacts with a second person.
import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, expect as baseExpect, test, unique } from '../fixtures';

// Answers wait for a loaded machine's server: conditions, with room.
const expect = baseExpect.configure({ timeout: 60_000 });

// A spot of this run's own, 1-2 km from the map's start point where other specs put their trackers at the same time.
const LAT = 51.51 + Math.random() * 0.01;
const LNG = -0.1246 + Math.random() * 0.01;
const METRES_EAST = 1 / (111_195 * Math.cos((LAT * Math.PI) / 180));

async function trackedPrisoner(api: APIRequestContext, firstName: string): Promise<{ prisonerId: number; deviceId: string }> {
  const created = await api.post('/api/v1/prisoner/add', {
    data: { first_name: firstName, last_name: 'Near', date_of_birth: '1990-01-01', status: 'Incarcerated' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const prisonerId = (await created.json()).prisoner_id as number;
  const device = await api.post('/api/v1/devices', { data: { name: `${firstName} tag`, prisoner_id: prisonerId, kind: 'phone' } });
  expect([200, 201], await device.text()).toContain(device.status());
  return { prisonerId, deviceId: ((await device.json()) as { id: string }).id };
}

async function sendFix(api: APIRequestContext, deviceId: string, lat: number, lon: number, at: number) {
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat, lon, timestamp: new Date(at).toISOString() } });
  expect(res.status(), await res.text()).toBe(200);
}

test('who was near: table, CSV and printed report agree; contacts of the pair', async ({ adminPage: page, api }) => {
  // 75 fixes through the protocol and four questions: generous on a loaded machine.
  test.setTimeout(240_000);
  const subject = await trackedPrisoner(api, unique('Subj'));
  const metName = unique('Met');
  const met = await trackedPrisoner(api, metName);
  const farName = unique('Far');
  const far = await trackedPrisoner(api, farName);
  // Two minutes of fixes every 5 s, ten minutes ago: "Met" within 5 m of the subject from 35 s to 75 s, "Far" 200 m away.
  const start = Math.floor((Date.now() - 12 * 60_000) / 1000) * 1000;
  for (let s = 0; s <= 120; s += 5) {
    const at = start + s * 1000;
    await sendFix(api, subject.deviceId, LAT, LNG, at);
    await sendFix(api, met.deviceId, LAT, LNG + (s >= 35 && s <= 75 ? 3 : 150) * METRES_EAST, at);
    await sendFix(api, far.deviceId, LAT + 200 / 111_195, LNG, at);
  }

  const from = new Date(start).toISOString();
  const to = new Date(start + 120_000).toISOString();
  await page.goto(`/investigations/near?subject=prisoner:${subject.prisonerId}&from=${from}&to=${to}&radius_m=10`);
  const table = page.getByTestId('near-table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(`${metName} Near`);
  await expect(table).not.toContainText(farName);
  await expect(table.getByRole('row').nth(1)).toContainText(`Prisoner #${met.prisonerId}`);

  // CSV: downloaded, the same people.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`who-was-near-prisoner-${subject.prisonerId}.csv`);
  const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
  expect(csv[0]).toBe('name,prisoner_id,staff_id,first_at,last_at,min_distance_m,fixes,closest_latitude,closest_longitude');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(`${metName} Near,${met.prisonerId},,${new Date(start + 35_000).toISOString()},${new Date(start + 75_000).toISOString()},`);
  expect(csv[1]).toMatch(/,(2\.9\d|3(\.0\d)?),9,/);

  // The printed report: the question, who asked, and the same people; the screen's controls are not printed.
  await page.emulateMedia({ media: 'print' });
  const report = page.getByTestId('near-report');
  await expect(report).toBeVisible();
  await expect(report).toContainText(`Prisoner #${subject.prisonerId}`);
  await expect(page.getByTestId('report-asked-by')).toHaveText(E2E_ADMIN.name);
  await expect(page.getByTestId('report-table').getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('report-table').getByRole('row').nth(1)).toContainText(`${metName} Near`);
  await expect(table).toBeHidden();
  await expect(page.getByRole('button', { name: 'Find who was near' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // Contacts with the one who met him: one meeting; with the far one: none.
  const contacts = page.getByRole('form', { name: 'Contacts with a second person' });
  await contacts.getByLabel('Number').fill(String(met.prisonerId));
  await contacts.getByRole('button', { name: 'Show contacts' }).click();
  await expect(page.getByTestId('contacts-table').getByRole('row')).toHaveCount(2);
  await expect(page).toHaveURL(new RegExp(`with=prisoner%3A${met.prisonerId}`));
  await contacts.getByLabel('Number').fill(String(far.prisonerId));
  await contacts.getByRole('button', { name: 'Show contacts' }).click();
  await expect(page.getByText('were never within 10 m in this window')).toBeVisible();

  // A window with no fixes: the empty state, not an error.
  await page.goto(`/investigations/near?subject=prisoner:${subject.prisonerId}&from=${new Date(start - 7_200_000).toISOString()}&to=${new Date(start - 3_600_000).toISOString()}&radius_m=10`);
  await expect(page.getByText('Nobody came within 10 m in this window.').first()).toBeVisible();
});
