// The demo's site plan: an SVG drawing of the fictional prison, drawn from the same PrisonSite the demo
// geofences come from, so its wall, blocks, yard, workshop, armoury and gates sit under the zones, and placed by three
// points through the same service as an upload. A new user's first map is the prison, even offline.
import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sitePlans } from '../db/schema';
import { SYSTEM_ACTOR } from '../lib/audit';
import { createPlan } from '../modules/site-plans/site-plan-service';
import type { PrisonSite, Point } from '../simulator/site';

/** The drawing covers 600 x 480 m around the centre, one SVG unit a metre; y grows south in SVG, north on the site. */
const WIDTH = 600;
const HEIGHT = 480;
const toSvg = ([x, y]: Point): Point => [x + WIDTH / 2, HEIGHT / 2 - y];

function box(name: string, from: Point, to: Point, fill: string): string {
  const [x1, y1] = toSvg([from[0], to[1]]);
  const [x2, y2] = toSvg([to[0], from[1]]);
  return `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="${fill}" stroke="#475569" stroke-width="1.5"/>
<text x="${(x1 + x2) / 2}" y="${(y1 + y2) / 2 + 4}" text-anchor="middle">${name}</text>`;
}

function disc(name: string, centre: Point, radius: number, fill: string): string {
  const [cx, cy] = toSvg(centre);
  return `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="${fill}" stroke="#475569" stroke-width="1.5"/>
<text x="${cx}" y="${cy + 4}" text-anchor="middle">${name}</text>`;
}

function gate(name: string, at: Point, horizontal: boolean): string {
  const [x, y] = toSvg(at);
  const [w, h] = horizontal ? [24, 10] : [10, 24];
  return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" fill="#fde68a" stroke="#92400e" stroke-width="2"/>
<text x="${x}" y="${y + (horizontal ? 22 : -16)}" text-anchor="middle">${name}</text>`;
}

export function demoSitePlanSvg(site: PrisonSite): string {
  const wall = site.perimeter.map((p) => toSvg(p).join(',')).join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11" fill="#1e293b">
<rect width="${WIDTH}" height="${HEIGHT}" fill="#e2e8f0"/>
<polygon points="${wall}" fill="#f8fafc" stroke="#334155" stroke-width="6" stroke-linejoin="round"/>
<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="13" font-weight="bold">HMP Demo: perimeter wall</text>
${box('Block A', site.blockA.from, site.blockA.to, '#cbd5e1')}
${box('Block B', [70, -140], [190, -70], '#cbd5e1')}
${box('Block C', [80, -45], [200, 35], '#cbd5e1')}
${box('Workshop', site.workshop.from, site.workshop.to, '#d9f99d')}
${disc('Armoury', site.armoury.centre, site.armoury.radius, '#fecaca')}
${disc('Exercise yard', site.yard.centre, site.yard.radius, '#bbf7d0')}
${gate('Main gate', [0, -185], true)}
${gate('Vehicle gate', [-245, 0], false)}
</svg>
`;
}

/** Three pixels of the drawing and their ground spots: the corners of a wide triangle. */
export function demoSitePlanPoints(site: PrisonSite) {
  return ([[0, 0], [WIDTH, 0], [0, HEIGHT]] as Point[]).map(([px, py]) => {
    const [lat, lng] = site.toLatLng([px - WIDTH / 2, HEIGHT / 2 - py]);
    return { x: px, y: py, lat, lng };
  });
}

/** Stores the demo plan once (a later start finds a plan and leaves the administrator's choice alone). */
export async function seedDemoSitePlan(db: Db, site: PrisonSite): Promise<void> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(sitePlans);
  if (n > 0) return;
  await createPlan(
    db,
    { file: Buffer.from(demoSitePlanSvg(site)), fields: { name: 'HMP Demo site plan', points: JSON.stringify(demoSitePlanPoints(site)) } },
    SYSTEM_ACTOR,
  );
}
