// Where an RTLS position lies on the ground: the RTLS origin is a pixel of the default site plan (RTLS_PLAN_ORIGIN),
// its x axis runs along the image's x axis and its y axis up the image, both at the scale the plan's placement fits
// (metres per pixel); the pixel is then placed on the ground as the map places the plan.
import { pixelToLatLng, sitePlanFit, type PlanFit, type SitePlan } from '@prison/shared';

export class PlanPlacement {
  private constructor(
    private readonly fit: PlanFit,
    private readonly origin: { x: number; y: number },
  ) {}

  /** The placement of the default plan; null when there is none (RTLS positions are then refused). */
  static of(plans: readonly SitePlan[], origin: string): PlanPlacement | null {
    const plan = plans.find((p) => p.is_default);
    const fit = plan ? sitePlanFit(plan) : null;
    if (!fit) return null;
    const [x, y] = origin.split(',').map((part) => Number(part.trim()));
    return new PlanPlacement(fit, { x: x!, y: y! });
  }

  latLng(xM: number, yM: number): { lat: number; lng: number } {
    const px = this.origin.x + xM / this.fit.metersPerPixel.x;
    const py = this.origin.y - yM / this.fit.metersPerPixel.y;
    return pixelToLatLng(this.fit, px, py);
  }
}
