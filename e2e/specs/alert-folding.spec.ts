// One problem, one alert (decision 109): a prisoner who leaves a Negative zone three times while its alert is open has
// one alert card that says how often, and the Critical bar says so too.
import { expect, test, unique } from '../fixtures';
import { seedTrackedPrisoner } from './records-helpers';

test('three breaches of one zone by one prisoner are one alert card, "Seen 3 times"', async ({ api, adminPage: page }) => {
  const centre = { lat: 51.44 + Math.random() * 0.02, lng: -0.2 + Math.random() * 0.02 };
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Folded'), last_name: 'Walker' });
  const zone = await api.post('/api/v1/geofence/add', {
    data: {
      geofence_id: crypto.randomUUID(),
      shape: 'Circle',
      name: unique('Wing yard '),
      type: 'Negative',
      alert_type: 'Critical',
      radius: 100,
      center_lat: centre.lat,
      center_lng: centre.lng,
      dwell_seconds: 0,
      // Only this spec's prisoner: other specs' trackers never meet it.
      applies_to: { prisoner_ids: [prisoner.prisoner_id] },
    },
  });
  expect(zone.status(), await zone.text()).toBeLessThan(300);
  const start = Date.now() - 10 * 60_000;
  const fix = async (outside: boolean, minute: number) => {
    const res = await api.get('/api/v1/ingest/osmand', {
      params: { id: prisoner.deviceId, lat: centre.lat + (outside ? 0.002 : 0), lon: centre.lng, timestamp: String(start + minute * 60_000) },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await fix(false, 0);
  for (const minute of [1, 3, 5]) {
    await fix(true, minute);
    await fix(false, minute + 1);
  }

  // Open Criticals are pinned on top of the alerts screen.
  await page.goto('/allAlerts?alert_type=Critical&status=New');
  const card = page.getByTestId('alert-card').filter({ hasText: prisoner.first_name }).first();
  await expect(card.getByTestId('alert-repeats')).toHaveText(/^Seen 3 times, last /);
  const bar = page.getByTestId('critical-alert-bar');
  if (await bar.getByTestId('critical-bar-more').isVisible()) await bar.getByTestId('critical-bar-more').click();
  await expect(bar.locator(`[data-testid="critical-alert"]`, { hasText: prisoner.first_name }).getByTestId('critical-repeats')).toHaveText(
    /^Seen 3 times, last /,
  );
  const list = (await (await api.get(`/api/v1/alert/prisoneralerts?prisoner_id=${prisoner.prisoner_id}&limit=10`)).json()) as {
    data: { repeat_count: number; kind: string }[];
  };
  expect(list.data.filter((a) => a.kind === 'geofence').map((a) => a.repeat_count)).toEqual([3]);
});
