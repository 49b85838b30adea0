// Site plans (decision 065): the prison's own drawing under every map, placed on the ground by three points.
import { z } from 'zod';
import { REQUIRED, intText, nameText } from './text';
import { fitPlan, type PlanFit } from './site-plan-fit';

export const SITE_PLAN_MAX_BYTES = 20 * 1024 * 1024;
/** A browser decodes every pixel of a plan (4 bytes each): 100 megapixels is 400 MB, past that a tab may die. */
export const SITE_PLAN_MAX_MEGAPIXELS = 100;
export const SITE_PLAN_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type SitePlanType = (typeof SITE_PLAN_TYPES)[number];
/** The most points a placement takes: three fix it exactly, more are fitted and give a residual. */
export const SITE_PLAN_MAX_POINTS = 12;

const pixel = z.number().finite().min(-1e6).max(1e6);
export const planPoint = z.object({
  x: pixel,
  y: pixel,
  lat: z.number().finite().min(-90).max(90),
  lng: z.number().finite().min(-180).max(180),
});

/** The multipart `points` field: JSON text of three (or more) points, fitted; points on one line are refused. */
export const planPointsField = z
  .string()
  .max(4000)
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON: [{ "x", "y", "lat", "lng" }, ...]' });
      return z.NEVER;
    }
  })
  .pipe(z.array(planPoint, { error: 'must be a list of { x, y, lat, lng }' }).min(3, 'needs three points').max(SITE_PLAN_MAX_POINTS))
  .superRefine((points, context) => {
    const result = fitPlan(points);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.problem });
  });

/** The text fields of an upload or a replacement (the file is checked by its content, on the server). */
export const sitePlanFields = z.object({
  name: nameText(120).min(1, REQUIRED),
  points: planPointsField,
});
export type SitePlanFields = z.infer<typeof sitePlanFields>;

export const sitePlan = z.object({
  id: z.number(),
  name: z.string(),
  content_type: z.enum(SITE_PLAN_TYPES),
  width: z.number(),
  height: z.number(),
  byte_size: z.number(),
  points: z.array(planPoint),
  is_default: z.boolean(),
  /** The image, its version in the address so a browser may keep it for a year. */
  image_url: z.string(),
  updated_at: z.string(),
});
export type SitePlan = z.infer<typeof sitePlan>;
export const sitePlanList = z.array(sitePlan);

export const sitePlanIdParams = z.object({ id: intText() });

/** The fit of a stored plan (its points were checked when it was saved). */
export function sitePlanFit(plan: Pick<SitePlan, 'points'>): PlanFit | null {
  const result = fitPlan(plan.points);
  return result.ok ? result.fit : null;
}
