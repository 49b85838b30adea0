// Where each counted prisoner is, from the records and the trackers' last fixes: pure, so the rules
// are read in one place. A fix older than the offline threshold says nothing about where he is now.
import { circleContains, polygonContains, polygonPlanarArea, type CountLine, type PrisonerFlagKind, type StoredGeofence } from '@prison/shared';

export interface CountedPrisoner {
  prisonerId: number;
  name: string;
  prisonNumber: string;
  photoDigest: string | null;
  flags: PrisonerFlagKind[];
  block: string;
  cellId: string;
  deviceId: string | null;
  lastFixAt: Date | null;
  latitude: number | null;
  longitude: number | null;
}

export interface CountPlaces {
  /** Each block's area as `[lat, lng]` rings. */
  areas: Map<string, [number, number][]>;
  geofences: StoredGeofence[];
  offlineMs: number;
  now: Date;
}

export const OUTSIDE_EVERY_AREA = 'outside every block and geofence';
const METRES_PER_DEGREE = 111_320;

/** A rough size, only to name the smallest of several places holding a point (the yard, not the perimeter). */
function sizeOf(geofence: StoredGeofence): number {
  if (geofence.shape === 'Circle') return Math.PI * (geofence.radius ?? 0) ** 2;
  return Math.abs(polygonPlanarArea(geofence.coordinates ?? [])) * METRES_PER_DEGREE ** 2;
}

function geofenceHolds(geofence: StoredGeofence, lat: number, lng: number): boolean {
  if (geofence.shape === 'Circle')
    return circleContains(geofence.center_lat ?? 0, geofence.center_lng ?? 0, geofence.radius ?? 0, lat, lng);
  return polygonContains(geofence.coordinates ?? [], lat, lng);
}

/** The block or geofence a point is in: another block's area first, else the smallest geofence holding it. */
export function placeOf(lat: number, lng: number, places: CountPlaces): string {
  for (const [block, ring] of places.areas) if (polygonContains(ring, lat, lng)) return `Block ${block}`;
  const holding = places.geofences.filter((g) => geofenceHolds(g, lat, lng)).sort((a, b) => sizeOf(a) - sizeOf(b));
  return holding[0]?.name ?? OUTSIDE_EVERY_AREA;
}

export function countLineOf(prisoner: CountedPrisoner, places: CountPlaces): CountLine {
  const base = {
    prisoner_id: prisoner.prisonerId,
    name: prisoner.name,
    prison_number: prisoner.prisonNumber,
    photo_digest: prisoner.photoDigest,
    flags: prisoner.flags,
    block: prisoner.block,
    cell_id: prisoner.cellId,
    device_id: prisoner.deviceId,
    last_fix_at: prisoner.lastFixAt?.toISOString() ?? null,
  };
  const { latitude: lat, longitude: lng, lastFixAt } = prisoner;
  if (prisoner.deviceId === null || lastFixAt === null || lat === null || lng === null)
    return { ...base, state: 'untracked', where: null };
  if (places.now.getTime() - lastFixAt.getTime() > places.offlineMs) return { ...base, state: 'offline', where: null };
  const area = places.areas.get(prisoner.block);
  if (area && polygonContains(area, lat, lng)) return { ...base, state: 'in_block', where: `Block ${prisoner.block}` };
  return { ...base, state: 'elsewhere', where: placeOf(lat, lng, places) };
}
