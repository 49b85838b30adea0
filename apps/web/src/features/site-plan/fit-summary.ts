// The placement's error in words (decision 065): three points fit exactly, so the screen shows how far the scales
// along the image's two axes disagree (a typo in a point shows up there), and with more points their residual.
import { fitPlan, type PlanPoint } from '@prison/shared/site-plan-fit';

export type DraftPoint = { x: number | null; y: number | null; lat: number | null; lng: number | null };

export function completePoints(points: readonly DraftPoint[]): PlanPoint[] | null {
  if (points.some((p) => p.x === null || p.y === null || p.lat === null || p.lng === null)) return null;
  return points as PlanPoint[];
}

export function fitSummary(points: readonly DraftPoint[]): { ok: boolean; text: string } {
  const complete = completePoints(points);
  if (!complete) return { ok: false, text: 'Place all three points: a point on the plan, then its spot on the map.' };
  const result = fitPlan(complete);
  if (!result.ok) return { ok: false, text: `The points cannot place the plan: ${result.problem}.` };
  const { residualMeters, metersPerPixel } = result.fit;
  const spread = Math.abs(metersPerPixel.x - metersPerPixel.y) / Math.max(metersPerPixel.x, metersPerPixel.y);
  // The scale difference across the plan's width in metres: what a wrong point would distort at the far edge.
  return {
    ok: true,
    text:
      `Fit error ${residualMeters.toFixed(2)} m at the points; scale ${metersPerPixel.x.toFixed(3)} m/px across, ` +
      `${metersPerPixel.y.toFixed(3)} m/px down (${(spread * 100).toFixed(1)} % apart${spread > 0.05 ? ': check the points' : ''}).`,
  };
}
