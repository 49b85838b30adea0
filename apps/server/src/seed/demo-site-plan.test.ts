import { describe, expect, it } from 'vitest';
import { fitPlan, haversineMeters, pixelToLatLng } from '@prison/shared';
import { checkPlanImage } from '../modules/site-plans/image-check';
import { PrisonSite } from '../simulator/site';
import { demoSitePlanPoints, demoSitePlanSvg } from './demo-site-plan';

describe('the demo site plan', () => {
  const site = new PrisonSite(51.5007, -0.1246);

  it('is an SVG the upload check accepts, placed so its yard lies on the yard geofence', () => {
    expect(checkPlanImage(Buffer.from(demoSitePlanSvg(site)))).toEqual({ ok: true, contentType: 'image/svg+xml', width: 600, height: 480 });
    const result = fitPlan(demoSitePlanPoints(site));
    if (!result.ok) throw new Error(result.problem);
    // The yard's centre is drawn at (300 + x, 240 - y) in the SVG.
    const [x, y] = site.yard.centre;
    const drawn = pixelToLatLng(result.fit, 300 + x, 240 - y);
    const [lat, lng] = site.toLatLng(site.yard.centre);
    expect(haversineMeters(drawn.lat, drawn.lng, lat, lng)).toBeLessThan(1);
    expect(demoSitePlanSvg(site)).toMatch(/Block A[\s\S]*Block B[\s\S]*Block C[\s\S]*Workshop[\s\S]*Armoury[\s\S]*Exercise yard[\s\S]*Main gate/);
  });
});
