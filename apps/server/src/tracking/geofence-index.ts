// The spatial index of geofences: flatbush over each geofence's box grown by its buffer, then exact containment
// (DECISIONS.md item 1) for the few candidates whose box holds the point. Per-query cost does not grow with the
// number of geofences.
import Flatbush from 'flatbush';
import {
  circleBoundingBox,
  haversineMeters,
  isNearPolygonBoundary,
  polygonBoundingBox,
  polygonContains,
  preparePolygon,
  EDGE_TOLERANCE_METERS,
  type GeoBox,
  type Geofence,
  type PreparedPolygon,
} from '@prison/shared';

export type Containment = 'inside' | 'edge' | 'outside';

/** Containment codes of the allocation-free query API. */
export const OUTSIDE = 0;
export const INSIDE = 1;
/** Within `buffer_meters` of the boundary, on either side: the engine keeps the previous state there. */
export const EDGE = 2;
const CONTAINMENT_NAMES: readonly Containment[] = ['outside', 'inside', 'edge'];

/** A geofence compiled for fast tests; `slot` is its position in the index. */
export interface IndexedGeofence {
  readonly geofence: Geofence;
  readonly id: string;
  readonly slot: number;
  readonly positive: boolean;
  readonly bufferMeters: number;
  readonly dwellMs: number;
  /** The shape's box grown by the buffer (longitudes may pass +-180 across the antimeridian). */
  readonly box: GeoBox;
  readonly centerLat: number;
  readonly centerLng: number;
  readonly radius: number;
  /** Null for a circle. */
  readonly polygon: PreparedPolygon | null;
}

export function compileGeofence(geofence: Geofence, slot: number): IndexedGeofence {
  const bufferMeters = Math.max(0, geofence.buffer_meters || 0);
  const common = {
    geofence,
    id: geofence.geofence_id,
    slot,
    positive: geofence.type === 'Positive',
    bufferMeters,
    dwellMs: Math.max(0, geofence.dwell_seconds || 0) * 1000,
  };
  if (geofence.shape === 'Circle') {
    const centerLat = geofence.center_lat ?? 0;
    const centerLng = geofence.center_lng ?? 0;
    const radius = geofence.radius ?? 0;
    return { ...common, centerLat, centerLng, radius, polygon: null, box: circleBoundingBox(centerLat, centerLng, radius, bufferMeters) };
  }
  const polygon = preparePolygon(geofence.coordinates ?? []);
  return { ...common, centerLat: 0, centerLng: 0, radius: 0, polygon, box: polygonBoundingBox(polygon, bufferMeters) };
}

/** Exact containment of one point in one compiled geofence, with its buffer. */
export function containmentOf(fence: IndexedGeofence, lat: number, lng: number): number {
  const buffer = fence.bufferMeters;
  const polygon = fence.polygon;
  if (polygon === null) {
    const distance = haversineMeters(fence.centerLat, fence.centerLng, lat, lng);
    if (buffer > 0 && Math.abs(distance - fence.radius) <= buffer) return EDGE;
    return distance <= fence.radius + EDGE_TOLERANCE_METERS ? INSIDE : OUTSIDE;
  }
  if (polygon.lats.length < 3) return OUTSIDE;
  if (buffer > 0 && isNearPolygonBoundary(polygon, lat, lng, buffer)) return EDGE;
  return polygonContains(polygon, lat, lng) ? INSIDE : OUTSIDE;
}

export interface Classification {
  geofence: Geofence;
  containment: Containment;
}

export class GeofenceIndex {
  readonly fences: readonly IndexedGeofence[];
  /** Slots of the candidates of the last `query`, and their containment codes (valid up to the returned count). */
  hitSlots: Int32Array;
  hitCodes: Uint8Array;
  private readonly tree: Flatbush | null;
  /** Index item -> slot: a box crossing the antimeridian is added twice, once on each side. */
  private readonly itemSlots: Int32Array;
  private readonly seen: Int32Array;
  private queryStamp = 0;
  private queryLat = 0;
  private queryLng = 0;
  private hitCount = 0;
  private readonly collect: (item: number) => boolean;

  constructor(geofences: readonly Geofence[]) {
    this.fences = geofences.map(compileGeofence);
    const items: number[] = [];
    const boxes: number[] = [];
    const add = (slot: number, minLng: number, minLat: number, maxLng: number, maxLat: number) => {
      items.push(slot);
      boxes.push(minLng, minLat, maxLng, maxLat);
    };
    for (const fence of this.fences) {
      const { minLat, minLng, maxLat, maxLng } = fence.box;
      add(fence.slot, minLng, minLat, maxLng, maxLat);
      if (maxLng > 180) add(fence.slot, minLng - 360, minLat, maxLng - 360, maxLat);
      if (minLng < -180) add(fence.slot, minLng + 360, minLat, maxLng + 360, maxLat);
    }
    this.itemSlots = Int32Array.from(items);
    this.seen = new Int32Array(this.fences.length);
    this.hitSlots = new Int32Array(16);
    this.hitCodes = new Uint8Array(16);
    if (items.length > 0) {
      const tree = new Flatbush(items.length);
      for (let i = 0; i < items.length; i++) tree.add(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
      tree.finish();
      this.tree = tree;
    } else {
      this.tree = null;
    }
    // One closure for the life of the index: flatbush calls it per box hit; it records the hit and keeps flatbush's
    // own result list empty.
    this.collect = (item: number) => {
      const slot = this.itemSlots[item]!;
      if (this.seen[slot] === this.queryStamp) return false;
      this.seen[slot] = this.queryStamp;
      const fence = this.fences[slot]!;
      const n = this.hitCount;
      if (n === this.hitSlots.length) this.grow();
      this.hitSlots[n] = slot;
      this.hitCodes[n] = containmentOf(fence, this.queryLat, this.queryLng);
      this.hitCount = n + 1;
      return false;
    };
  }

  get size(): number {
    return this.fences.length;
  }

  /**
   * The candidates for a point (every geofence whose grown box holds it) with their containment, written to
   * `hitSlots`/`hitCodes`; returns how many. Geofences not listed are outside. Allocates nothing of its own.
   */
  query(lat: number, lng: number): number {
    this.hitCount = 0;
    if (this.tree === null) return 0;
    this.queryStamp = (this.queryStamp + 1) | 0;
    if (this.queryStamp === 0) {
      this.seen.fill(0);
      this.queryStamp = 1;
    }
    this.queryLat = lat;
    this.queryLng = lng;
    this.tree.search(lng, lat, lng, lat, this.collect);
    return this.hitCount;
  }

  /** The candidates for a point and their containment (convenient form of `query`). */
  classify(lat: number, lng: number): Classification[] {
    const n = this.query(lat, lng);
    const result: Classification[] = [];
    for (let i = 0; i < n; i++) {
      result.push({ geofence: this.fences[this.hitSlots[i]!]!.geofence, containment: CONTAINMENT_NAMES[this.hitCodes[i]!]! });
    }
    return result;
  }

  private grow() {
    const slots = new Int32Array(this.hitSlots.length * 2);
    slots.set(this.hitSlots);
    const codes = new Uint8Array(this.hitCodes.length * 2);
    codes.set(this.hitCodes);
    this.hitSlots = slots;
    this.hitCodes = codes;
  }
}

/**
 * The baseline without an index: every geofence's box, then exact containment, one by one. Writes each slot's code
 * into `out` (OUTSIDE for geofences whose box misses the point). Used by the benchmark and to prove both agree.
 */
export function linearScanClassify(fences: readonly IndexedGeofence[], lat: number, lng: number, out: Uint8Array): Uint8Array {
  for (let i = 0; i < fences.length; i++) {
    const fence = fences[i]!;
    const box = fence.box;
    let code = OUTSIDE;
    if (lat >= box.minLat && lat <= box.maxLat) {
      const inLng =
        (lng >= box.minLng && lng <= box.maxLng) ||
        (lng + 360 >= box.minLng && lng + 360 <= box.maxLng) ||
        (lng - 360 >= box.minLng && lng - 360 <= box.maxLng);
      if (inLng) code = containmentOf(fence, lat, lng);
    }
    out[i] = code;
  }
  return out;
}

export function containmentName(code: number): Containment {
  return CONTAINMENT_NAMES[code] ?? 'outside';
}
