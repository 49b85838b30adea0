import { describe, expect, it } from 'vitest';
import { haversineMeters } from './geo/distance';
import { COLLINEAR_PROBLEM, fitPlan, pixelToLatLng, planCorners } from './site-plan-fit';
import { planPointsField } from './site-plan';

// A 1000 x 800 px plan, 0.25 m per pixel, turned 20 degrees, around the demo prison.
const origin = { lat: 51.5007, lng: -0.1246 };
const angle = (20 * Math.PI) / 180;
function ground(x: number, y: number) {
  const east = 0.25 * (x * Math.cos(angle) + y * Math.sin(angle));
  const north = 0.25 * (x * Math.sin(angle) - y * Math.cos(angle));
  return {
    lat: origin.lat + north / 111_195.08,
    lng: origin.lng + east / (111_195.08 * Math.cos((origin.lat * Math.PI) / 180)),
  };
}
const at = (x: number, y: number) => ({ x, y, ...ground(x, y) });

describe('site plan fit', () => {
  it('places a known pixel within 1 m of its ground point from three points', () => {
    const result = fitPlan([at(10, 20), at(950, 40), at(400, 760)]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    for (const [x, y] of [[500, 400], [0, 0], [1000, 800], [123, 654]] as const) {
      const placed = pixelToLatLng(result.fit, x, y);
      const truth = ground(x, y);
      expect(haversineMeters(placed.lat, placed.lng, truth.lat, truth.lng)).toBeLessThan(1);
    }
    expect(result.fit.residualMeters).toBeLessThan(0.01);
    expect(result.fit.metersPerPixel.x).toBeCloseTo(0.25, 3);
    expect(result.fit.metersPerPixel.y).toBeCloseTo(0.25, 3);
  });

  it('gives the residual in metres when a fourth point disagrees', () => {
    const off = at(900, 700);
    const result = fitPlan([at(10, 20), at(950, 40), at(400, 760), { ...off, lat: off.lat + 10 / 111_195 }]);
    expect(result.ok && result.fit.residualMeters).toBeGreaterThan(2);
    expect(result.ok && result.fit.residualMeters).toBeLessThan(10);
  });

  it('refuses points on one line, in the image or on the ground', () => {
    expect(fitPlan([at(0, 0), at(100, 100), at(300, 300)])).toEqual({ ok: false, problem: COLLINEAR_PROBLEM });
    expect(fitPlan([at(0, 0), at(100, 100), at(300, 301)])).toEqual({ ok: false, problem: COLLINEAR_PROBLEM });
    const flatGround = [at(0, 0), at(500, 0), at(0, 500)].map((p, i) => ({ ...p, ...ground(i * 100, i * 100) }));
    expect(fitPlan(flatGround)).toMatchObject({ ok: false, problem: expect.stringMatching(/ground points lie on one line/) });
    expect(fitPlan([at(0, 0), at(1, 1)])).toMatchObject({ ok: false });
  });

  it('gives the corners a map draws the image by', () => {
    const result = fitPlan([at(10, 20), at(950, 40), at(400, 760)]);
    if (!result.ok) throw new Error('fit failed');
    const corners = planCorners(result.fit, 1000, 800);
    const truth = ground(1000, 0);
    expect(haversineMeters(corners.topRight.lat, corners.topRight.lng, truth.lat, truth.lng)).toBeLessThan(0.01);
  });

  it('reads the multipart points field and names its problem', () => {
    expect(planPointsField.safeParse(JSON.stringify([at(10, 20), at(950, 40), at(400, 760)])).success).toBe(true);
    const collinear = planPointsField.safeParse(JSON.stringify([at(0, 0), at(100, 100), at(300, 300)]));
    expect(collinear.success).toBe(false);
    expect(collinear.error?.issues[0]?.message).toBe(COLLINEAR_PROBLEM);
    expect(planPointsField.safeParse('not json').success).toBe(false);
    expect(planPointsField.safeParse(JSON.stringify([at(0, 0)])).success).toBe(false);
  });
});
