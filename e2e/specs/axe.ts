// axe (WCAG 2 A and AA) on the page as it is now; every violation is listed with the elements it names.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export async function expectNoViolations(page: Page, label: string) {
  // Audited at its final colours, not half-way through a fade (a Leaflet popup's fades in over 0.2 s, and axe reads
  // the opacity of the moment: crowd-list.spec failed once on contrast so). Endless animations are not waited for.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    results.violations.map(
      (v) => `${label}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([]);
}
