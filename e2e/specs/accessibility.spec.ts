// axe-core (WCAG 2 A and AA) on every screen of the router at 1440 px, and at 390 px where a screen has markup of its
// own there, with the data each screen shows (a prisoner in a cell wearing a tracker, an open Critical alert, a log
// entry); and at both widths the document never scrolls sideways (decision 030). The list of screens is checked against router.tsx, so a new
// route fails here until it is added.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, loginThroughApi, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedStaff, seedTrackedPrisoner } from './records-helpers';

interface Seeded {
  prisonerId: number;
  name: string;
  deviceId: string;
  alertId: number;
  incidentId: number;
}

interface Screen {
  /** The route's path as router.tsx writes it. */
  route: string;
  label: string;
  url(data: Seeded): string;
  admin: boolean;
  /** What is on screen once the screen has its data. */
  ready(page: Page, data: Seeded): Locator;
  /** Extra steps before the checks (e.g. choosing the prisoner whose track is replayed). */
  act?(page: Page, data: Seeded): Promise<void>;
  /** Controls that must be on screen without scrolling sideways at 390 px (a row's actions). */
  reachable?(page: Page, data: Seeded): Locator;
  /**
   * The screen shows markup of its own at 390 px (the layout's phone menu, the Critical bar's one line, the map's list
   * panel), so axe audits it at both widths; every other screen differs at 390 px only in its CSS and is audited at
   * 1440 px, its layout checked at both.
   */
  phoneMarkup?: boolean;
}

const screens: Screen[] = [
  {
    route: '/',
    label: 'landing', phoneMarkup: true,
    url: () => '/',
    admin: false,
    ready: (p) => p.getByRole('button', { name: 'Get Started' }),
  },
  { route: '/login', label: 'login', phoneMarkup: true, url: () => '/login', admin: false, ready: (p) => p.getByLabel('Username') },
  { route: '/', label: 'home', phoneMarkup: true, url: () => '/', admin: true, ready: (p) => p.getByTestId('critical-alert-bar') },
  {
    route: '/dashboard',
    label: 'dashboard prisoners',
    url: () => '/dashboard',
    admin: true,
    ready: (p) => p.getByRole('table', { name: 'Prisoners' }),
    act: async (p, d) => {
      await p.getByPlaceholder('Search prisoner').fill(d.name);
      await expect(p.getByRole('table', { name: 'Prisoners' }).locator('tbody tr')).toHaveCount(1);
    },
    reachable: (p) => p.getByRole('button', { name: /^Actions for prisoner/ }).first(),
  },
  {
    route: '/dashboard',
    label: 'dashboard police',
    url: () => '/dashboard?tab=police',
    admin: true,
    ready: (p) => p.getByRole('table', { name: 'Police' }),
    reachable: (p) => p.getByRole('button', { name: /^Actions for/ }).first(),
  },
  {
    route: '/dashboard',
    label: 'dashboard guards',
    url: () => '/dashboard?tab=guards',
    admin: true,
    ready: (p) => p.getByRole('table', { name: 'Guards' }),
    reachable: (p) => p.getByRole('button', { name: /^Actions for/ }).first(),
  },
  {
    route: '/prisoner-details/:prisonerId',
    label: 'prisoner details',
    url: (d) => `/prisoner-details/${d.prisonerId}`,
    admin: true,
    ready: (p, d) => p.getByRole('heading', { level: 1, name: d.name }),
  },
  {
    route: '/cell-assign',
    label: 'cell-assign',
    url: () => '/cell-assign',
    admin: true,
    ready: (p) => p.getByRole('heading', { name: 'Assign cells' }),
  },
  {
    route: '/live-map',
    label: 'live map', phoneMarkup: true,
    url: () => '/live-map',
    admin: true,
    ready: (p) => p.getByTestId('live-map'),
  },
  {
    route: '/location-history',
    label: 'location history',
    url: () => '/location-history',
    admin: true,
    ready: (p) => p.getByRole('searchbox', { name: 'Prisoner' }),
    act: async (p, d) => {
      await p.getByRole('searchbox', { name: 'Prisoner' }).fill(d.name);
      await p
        .getByRole('list', { name: 'Prisoners' })
        .getByRole('button', { name: `${d.name} · #${d.prisonerId} ·` })
        .click();
      await expect(p.getByRole('link', { name: 'Export GPX' })).toBeVisible();
    },
  },
  {
    route: '/investigations/near',
    label: 'who was near',
    url: () => '/investigations/near',
    admin: true,
    ready: (p) => p.getByRole('button', { name: 'Find who was near' }),
  },
  {
    route: '/allAlerts',
    label: 'allAlerts',
    url: () => '/allAlerts',
    admin: true,
    ready: (p) => p.getByRole('list', { name: 'Alerts', exact: true }),
  },
  {
    route: '/alerts',
    label: 'alerts',
    url: () => '/alerts',
    admin: true,
    ready: (p) => p.getByRole('list', { name: 'Alerts', exact: true }),
  },
  {
    route: '/communication',
    label: 'communication',
    url: () => '/communication',
    admin: true,
    ready: (p) => p.getByTestId('log-entry').first(),
  },
  {
    route: '/counts',
    label: 'counts',
    url: () => '/counts',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Roll counts', exact: true }),
  },
  {
    route: '/observations',
    label: 'observation checks',
    url: () => '/observations',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Observation checks', exact: true }),
  },
  {
    route: '/movements',
    label: 'movements',
    url: () => '/movements',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Movements', exact: true }),
  },
  {
    route: '/readers',
    label: 'readers',
    url: () => '/readers',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Indoor readers', exact: true }),
  },
  {
    route: '/site-plan',
    label: 'site plan',
    url: () => '/site-plan',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Site plan', exact: true }),
  },
  {
    route: '/replay',
    label: 'replay',
    url: () => '/replay',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Replay of everyone', exact: true }),
  },
  {
    route: '/incidents',
    label: 'incidents',
    url: () => '/incidents',
    admin: true,
    ready: (p) => p.getByRole('heading', { level: 1, name: 'Incidents', exact: true }),
  },
  {
    route: '/incidents/:incidentId',
    label: 'incident',
    url: (d) => `/incidents/${d.incidentId}`,
    admin: true,
    ready: (p, d) => p.getByRole('heading', { level: 1, name: `Incident #${d.incidentId}` }),
  },
  { route: '/audit', label: 'audit', url: () => '/audit', admin: true, ready: (p) => p.getByRole('table').first() },
  {
    route: '/profile',
    label: 'profile',
    url: () => '/profile',
    admin: true,
    ready: (p) => p.getByTestId('session-row').first(),
    reachable: (p) => p.getByTestId('session-row').first().getByRole('button', { name: 'Revoke' }),
  },
];

/** Every path of the router but the catch-all redirect. */
function routerPaths(): string[] {
  const source = readFileSync(path.resolve(import.meta.dirname, '../../apps/web/src/app/router.tsx'), 'utf8');
  return [...source.matchAll(/\bpath:\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!).filter((p) => p !== '*');
}

test('the screens below cover every route of router.tsx', () => {
  const paths = routerPaths();
  expect(paths.length).toBeGreaterThan(10);
  expect([...new Set(screens.map((s) => s.route))].sort()).toEqual([...new Set(paths)].sort());
});

test('the desktop menu links Communication and Profile (issue 11, item 9)', async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Communication', exact: true })).toHaveAttribute('href', '/communication');
  await expect(nav.getByRole('link', { name: 'Profile', exact: true })).toHaveAttribute('href', '/profile');
});

let seeded: Promise<Seeded> | undefined;

/** A tracked prisoner with a short track, an open Critical (its SOS) and a log entry; made once for the file. */
async function seed(api: APIRequestContext): Promise<Seeded> {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Axe'), last_name: 'Screens' });
  const name = `${prisoner.first_name} ${prisoner.last_name}`;
  const now = Math.floor(Date.now() / 1000);
  const fixes: Record<string, string | number>[] = [
    { lat: 51.5007, lon: -0.1246, timestamp: now - 60 },
    { lat: 51.501, lon: -0.124, timestamp: now - 30 },
    { lat: 51.5012, lon: -0.1238, timestamp: now, alarm: 'sos' },
  ];
  for (const [i, params] of fixes.entries()) {
    const res = await api.get('/api/v1/ingest/osmand', { params: { id: prisoner.deviceId, ...params } });
    expect(res.status(), `fix ${i}: ${await res.text()}`).toBe(200);
  }
  const alerts = await api.get('/api/v1/alert/prisoneralerts', {
    params: { status: 'New', alert_type: 'Critical', limit: 100 },
  });
  const alert = ((await alerts.json()) as { data: { id: number; prisoner_id: number | null }[] }).data.find(
    (a) => a.prisoner_id === prisoner.prisoner_id,
  );
  expect(alert, 'the SOS raised an open Critical alert').toBeDefined();
  await seedStaff(api, 'Police');
  await seedStaff(api, 'Guard');
  const message = await api.post('/api/v1/messages', { data: { body: `Checked ${name} after the SOS.` } });
  expect(message.status(), await message.text()).toBe(200);
  // The incident links a Warning of his: opened from the SOS it would acknowledge it (decision 105), and the
  // screens are checked with the Critical bar showing.
  const warning = await api.post('/api/v1/alert/all', {
    data: { device_id: prisoner.deviceId, alert_type: 'Warning', details: `Shouting near ${name}` },
  });
  expect(warning.status(), await warning.text()).toBe(201);
  const incident = await api.post('/api/v1/incidents', {
    data: {
      description: `SOS of ${name}`,
      window: { from: new Date((now - 900) * 1000).toISOString(), to: new Date(now * 1000).toISOString() },
      prisoner_ids: [prisoner.prisoner_id],
      alert_ids: [((await warning.json()) as { id: number }).id],
    },
  });
  expect(incident.status(), await incident.text()).toBe(200);
  const incidentId = ((await incident.json()) as { id: number }).id;
  return { prisonerId: prisoner.prisoner_id, name, deviceId: prisoner.deviceId, alertId: alert!.id, incidentId };
}

test.afterAll(async ({ playwright }, testInfo) => {
  // Later specs start with no open Critical of this file's making.
  if (!seeded) return;
  const { alertId } = await seeded;
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await loginThroughApi(api);
  await api.post(`/api/v1/alert/${alertId}/acknowledge`, { data: { note: 'Accessibility checks done' } });
  await api.dispose();
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  for (const screen of screens) {
    test(`${screen.label} at ${size.width} px: no accessibility violations, no sideways scrolling`, async ({
      page,
      context,
      api,
    }) => {
      seeded ??= seed(api);
      const data = await seeded;
      if (screen.admin) await loginThroughApi(context.request);
      await page.setViewportSize(size);
      await page.goto(screen.url(data));
      await expect(screen.ready(page, data)).toBeVisible();
      if (screen.act) await screen.act(page, data);
      await expect(page.locator('.animate-spin, [aria-busy="true"]')).toHaveCount(0);

      if (screen.admin) {
        // The open Critical stays on the first screen, its Acknowledge at hand, at both widths.
        const bar = page.getByTestId('critical-alert-bar');
        // On a phone the bar is one line; Show lists the alerts with their Acknowledge (decision 044).
        if (size.width < 640) await bar.getByTestId('critical-bar-toggle').click();
        await expect(bar.getByRole('button', { name: 'Acknowledge' }).first()).toBeInViewport();
      }
      if (screen.admin && size.width === 1440) {
        // Every link of the desktop menu on one line beside the top bar's counts, name and Logout.
        const nav = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
        expect(nav?.height ?? 0, 'the desktop menu fits on one line').toBeLessThan(44);
      }
      if (screen.reachable) {
        // Scrolled down to, never sideways: a row's actions must be on screen in the row's own width.
        const control = screen.reachable(page, data);
        // The page scrolls in its own box above the toast band (decision 040), not the window.
        await control.evaluate((el) => {
          const root = document.querySelector('[data-scroll-root]')!;
          root.scrollTop += el.getBoundingClientRect().top - 200;
        });
        await expect(control).toBeInViewport({ ratio: 1 });
        await page.evaluate(() => (document.querySelector('[data-scroll-root]')!.scrollTop = 0));
      }

      const widths = await page.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        page: document.querySelector('[data-scroll-root]')!.scrollWidth,
        window: window.innerWidth,
      }));
      expect(widths.window).toBe(size.width);
      expect(widths.document, 'the document is no wider than the window').toBeLessThanOrEqual(size.width);
      expect(widths.page, 'the page is no wider than the window').toBeLessThanOrEqual(size.width);

      if (size.width === 1440 || screen.phoneMarkup) await expectNoViolations(page, `${screen.label} at ${size.width} px`);
    });
  }
}
