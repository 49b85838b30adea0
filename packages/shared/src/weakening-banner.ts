// The banner every staff screen shows while a Critical zone is weakened, without a schema.
import type { ActiveWeakening } from './pending-change';

/** The banner's sentence: "Critical zone Perimeter weakened: asked by X, approved by Y, until <time>". */
export function weakeningBannerText(weakening: Pick<ActiveWeakening, 'level' | 'geofence_name' | 'requested_by' | 'approved_by'>, until: string): string {
  return `${weakening.level} zone ${weakening.geofence_name} weakened: asked by ${weakening.requested_by}, approved by ${weakening.approved_by}, until ${until}`;
}
