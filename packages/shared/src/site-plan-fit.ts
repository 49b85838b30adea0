// The affine fit that places a site plan on the ground (decision 065): image pixels -> local metres east and
// north of the first point -> latitude and longitude. Pure, so the server's check and the web's placement screen agree.
import { DEG_TO_RAD, METERS_PER_DEGREE, haversineMeters } from './geo/distance';

export interface PlanPoint {
  x: number;
  y: number;
  lat: number;
  lng: number;
}

/** east = a*x + b*y + c, north = d*x + e*y + f, in metres around `origin`. */
export interface PlanFit {
  origin: { lat: number; lng: number };
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  /** With more than three points: the largest distance from a point's ground spot to where the fit puts its pixel. */
  residualMeters: number;
  /** Metres per image pixel along the image's x and y axes; far apart means the points disagree (or a skewed plan). */
  metersPerPixel: { x: number; y: number };
}

export type FitResult = { ok: true; fit: PlanFit } | { ok: false; problem: string };

export const COLLINEAR_PROBLEM = 'the three points lie on one line; pick points spread over the plan';

function toLocal(origin: { lat: number; lng: number }, lat: number, lng: number) {
  return {
    east: (lng - origin.lng) * METERS_PER_DEGREE * Math.cos(origin.lat * DEG_TO_RAD),
    north: (lat - origin.lat) * METERS_PER_DEGREE,
  };
}

/** Twice the area of the triangle, divided by its longest side squared: ~0 for points on (or near) one line. */
function flatness(p: readonly { x: number; y: number }[]): number {
  let best = 0;
  for (let i = 0; i < p.length; i++)
    for (let j = i + 1; j < p.length; j++)
      for (let k = j + 1; k < p.length; k++) {
        const [a, b, c] = [p[i]!, p[j]!, p[k]!];
        const area2 = Math.abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y));
        const longest = Math.max((b.x - a.x) ** 2 + (b.y - a.y) ** 2, (c.x - a.x) ** 2 + (c.y - a.y) ** 2, (c.x - b.x) ** 2 + (c.y - b.y) ** 2);
        if (longest > 0) best = Math.max(best, area2 / longest);
      }
  return best;
}

/** Solves the 3x3 system m * v = r by Cramer's rule. */
function solve3(m: number[][], r: number[]): number[] {
  const det = (k: number[][]) =>
    k[0]![0]! * (k[1]![1]! * k[2]![2]! - k[1]![2]! * k[2]![1]!) -
    k[0]![1]! * (k[1]![0]! * k[2]![2]! - k[1]![2]! * k[2]![0]!) +
    k[0]![2]! * (k[1]![0]! * k[2]![1]! - k[1]![1]! * k[2]![0]!);
  const d = det(m);
  return [0, 1, 2].map((col) => det(m.map((row, i) => row.map((value, j) => (j === col ? r[i]! : value)))) / d);
}

/**
 * Fits pixels to ground. Exactly three points give the exact affine; more give the least-squares one and its residual.
 * Points on one line, in the image or on the ground, cannot place a plan.
 */
export function fitPlan(points: readonly PlanPoint[]): FitResult {
  if (points.length < 3) return { ok: false, problem: 'three points are needed' };
  const origin = { lat: points[0]!.lat, lng: points[0]!.lng };
  const ground = points.map((p) => toLocal(origin, p.lat, p.lng));
  // 1 % of the longest side: a sliver that thin turns a pixel's error into metres of error across the plan.
  if (flatness(points) < 0.01) return { ok: false, problem: COLLINEAR_PROBLEM };
  if (flatness(ground.map((g) => ({ x: g.east, y: g.north }))) < 0.01)
    return { ok: false, problem: 'the three ground points lie on one line; pick spots spread over the site' };
  // Normal equations of the least-squares fit (exact for three points); pixel coordinates relative to the first point
  // keep the matrix well conditioned for large images.
  const x0 = points[0]!.x;
  const y0 = points[0]!.y;
  const rows = points.map((p) => [p.x - x0, p.y - y0, 1]);
  const normal = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((sum, row) => sum + row[i]! * row[j]!, 0)));
  const rhs = (values: number[]) => [0, 1, 2].map((i) => rows.reduce((sum, row, k) => sum + row[i]! * values[k]!, 0));
  const [a, b, c0] = solve3(normal, rhs(ground.map((g) => g.east)));
  const [d, e, f0] = solve3(normal, rhs(ground.map((g) => g.north)));
  if (![a, b, c0, d, e, f0].every(Number.isFinite) || Math.abs(a! * e! - b! * d!) < 1e-12)
    return { ok: false, problem: COLLINEAR_PROBLEM };
  const fit: PlanFit = {
    origin,
    a: a!,
    b: b!,
    c: c0! - a! * x0 - b! * y0,
    d: d!,
    e: e!,
    f: f0! - d! * x0 - e! * y0,
    residualMeters: 0,
    metersPerPixel: { x: Math.hypot(a!, d!), y: Math.hypot(b!, e!) },
  };
  fit.residualMeters = Math.max(
    ...points.map((p) => {
      const placed = pixelToLatLng(fit, p.x, p.y);
      return haversineMeters(placed.lat, placed.lng, p.lat, p.lng);
    }),
  );
  return { ok: true, fit };
}

/** Where a pixel of the plan lies on the ground. */
export function pixelToLatLng(fit: PlanFit, x: number, y: number): { lat: number; lng: number } {
  const east = fit.a * x + fit.b * y + fit.c;
  const north = fit.d * x + fit.e * y + fit.f;
  return {
    lat: fit.origin.lat + north / METERS_PER_DEGREE,
    lng: fit.origin.lng + east / (METERS_PER_DEGREE * Math.cos(fit.origin.lat * DEG_TO_RAD)),
  };
}

/** The ground spots of the image's top-left, top-right and bottom-left corners: all a map needs to draw it. */
export function planCorners(fit: PlanFit, width: number, height: number) {
  return {
    topLeft: pixelToLatLng(fit, 0, 0),
    topRight: pixelToLatLng(fit, width, 0),
    bottomLeft: pixelToLatLng(fit, 0, height),
  };
}
