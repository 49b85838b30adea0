// A polygon whose edges cross is refused, drawn or edited, with the client contract's message for its time
// (docs/CLIENT-CONTRACT.md).

export const POLYGON_CROSSING_ERROR = 'Error: shape edges cannot cross!';
export const CROSSING_ERROR_MS = 2500;

/** The crossings geoman reports (`pm:intersect`): GeoJSON points, `[lng, lat]`. */
export interface Crossings {
  features: { geometry: { type: string; coordinates: unknown } }[];
}

/** Where the first crossing is, to show the message there; null when the report has no point. */
export function firstCrossing(crossings: Crossings | undefined): { lat: number; lng: number } | null {
  for (const feature of crossings?.features ?? []) {
    const coordinates = feature.geometry.coordinates;
    if (feature.geometry.type !== 'Point' || !Array.isArray(coordinates)) continue;
    const [lng, lat] = coordinates as unknown[];
    if (typeof lat === 'number' && typeof lng === 'number') return { lat, lng };
  }
  return null;
}
