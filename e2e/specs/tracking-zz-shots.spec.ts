import { test, unique } from '../fixtures';

test('shots', async ({ adminPage: page, api }) => {
  const p = await (await api.post('/api/v1/prisoner/add', { data: { first_name: 'Shot', last_name: unique('P'), status: 'Incarcerated' } })).json();
  const d = await (await api.post('/api/v1/devices', { data: { name: 'tag' } })).json();
  await api.put(`/api/v1/devices/${d.id}/assign`, { data: { prisoner_id: p.prisoner_id } });
  await api.post('/api/v1/geofence/add', { data: { geofence_id: crypto.randomUUID(), shape: 'Circle', name: 'Perim', type: 'Negative', alert_type: 'Critical', radius: 300, center_lat: 51.5007, center_lng: -0.1246 } });
  await api.post('/api/v1/geofence/add', { data: { geofence_id: crypto.randomUUID(), shape: 'Polygon', name: 'Zone', type: 'Positive', alert_type: 'Warning', coordinates: [[51.505, -0.13], [51.507, -0.125], [51.503, -0.12]] } });
  for (const t of ['Informational', 'Warning']) await api.post('/api/v1/alert/all', { data: { alert_type: t, details: `A ${t} alert` } });
  await page.goto('/live-map?testHooks=1');
  const now = Math.floor(Date.now() / 1000);
  await api.get('/api/v1/ingest/osmand', { params: { id: d.id, lat: 51.5007, lon: -0.1246, timestamp: now - 5 } });
  await page.waitForTimeout(1000);
  await api.get('/api/v1/ingest/osmand', { params: { id: d.id, lat: 51.51, lon: -0.1246, timestamp: now } });
  await page.waitForTimeout(1500);
  await page.getByTestId('tracked-prisoner').first().click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/shot-map.png' });
  await page.getByTestId('geofence-item').first().click();
  await page.screenshot({ path: '/tmp/shot-map-edit.png' });
  await page.goto('/allAlerts');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/shot-alerts.png', fullPage: true });
  await page.goto('/');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/shot-home.png', fullPage: true });
});
