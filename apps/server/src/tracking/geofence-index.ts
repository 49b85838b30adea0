// The spatial index of geofences: flatbush over each geofence's box grown by its buffer, then exact containment
// (docs/CLIENT-CONTRACT.md) for the few candidates whose box holds the point. Per-query cost does not grow with the
// number of geofences.
import Flatbush from 'flatbush';
import {
  circleBoundingBox,
  haversineMeters,
  isNearPolygonBoundary,
  polygonBoundingBox,
  polygonContains,
  preparePolygon,
  ringContainment,
  RING_INSIDE,
  RING_NEAR_BOUNDARY,
  RING_OUTSIDE,
  EDGE_TOLERANCE_METERS,
  type GeoBox,
  type StoredGeofence,
  type PreparedPolygon,
} from '@prison/shared';

export type Containment = 'inside' | 'edge' | 'outside';

/** Containment codes of the allocation-free query API. */
export const OUTSIDE = 0;
export const INSIDE = 1;
/** Within `buffer_meters` of the boundary, on either side: the engine keeps the previous state there. */
export const EDGE = 2;
const CONTAINMENT_NAMES: readonly Containment[] = ['outside', 'inside', 'edge'];
if (RING_OUTSIDE !== OUTSIDE || RING_INSIDE !== INSIDE || RING_NEAR_BOUNDARY !== EDGE)
  throw new Error('containment codes differ');

/** A geofence compiled for fast tests; `slot` is its position in the index. */
export interface IndexedGeofence {
  readonly geofence: StoredGeofence;
  readonly id: string;
  readonly slot: number;
  readonly positive: boolean;
  readonly bufferMeters: number;
  readonly dwellMs: number;
  /** The shape's box grown by the buffer and the edge tolerance (longitudes may pass +-180 across the antimeridian). */
  readonly box: GeoBox;
  readonly centerLat: number;
  readonly centerLng: number;
  readonly radius: number;
  /** Null for a circle. */
  readonly polygon: PreparedPolygon | null;
}

export function compileGeofence(geofence: StoredGeofence, slot: number): IndexedGeofence {
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
    return {
      ...common,
      centerLat,
      centerLng,
      radius,
      polygon: null,
      box: circleBoundingBox(centerLat, centerLng, radius, bufferMeters + EDGE_TOLERANCE_METERS),
    };
  }
  const polygon = preparePolygon(geofence.coordinates ?? []);
  return {
    ...common,
    centerLat: 0,
    centerLng: 0,
    radius: 0,
    polygon,
    box: polygonBoundingBox(polygon, bufferMeters + EDGE_TOLERANCE_METERS),
  };
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
  if (polygon.count < 3) return OUTSIDE;
  if (buffer > 0 && isNearPolygonBoundary(polygon, lat, lng, buffer)) return EDGE;
  return polygonContains(polygon, lat, lng) ? INSIDE : OUTSIDE;
}

export interface Classification {
  geofence: StoredGeofence;
  containment: Containment;
}

// Layout of one slot in `GeofenceIndex.shapes`.
const SHAPE_FIELDS = 10;
const CENTER_LAT = 0;
const CENTER_LNG = 1;
const RADIUS = 2;
const BUFFER = 3;
const IS_POLYGON = 4;
const REF_LNG = 5;
const RING_START = 6;
const RING_COUNT = 7;
const POSITIVE = 8;
const DWELL_MS = 9;

/** The parts of a finished flatbush tree that the point query below walks (declared public by flatbush's types). */
interface PackedTree {
  boxes: Float64Array;
  indices: Uint16Array | Uint32Array;
  levelBounds: number[];
  nodeSize: number;
  numItems: number;
}

export class GeofenceIndex {
  readonly fences: readonly IndexedGeofence[];
  /** Slots of the candidates of the last `query`, and their containment codes (valid up to the returned count). */
  hitSlots: Int32Array;
  hitCodes: Uint8Array;
  /** Each slot's grown box as minLng, minLat, maxLng, maxLat (for the linear scan). */
  readonly boxes: Float64Array;
  /**
   * The numbers the exact tests read, per slot (SHAPE_FIELDS each), and every polygon's vertices in one array:
   * contiguous memory, so a test costs a cache line or two rather than a chase through objects.
   */
  private readonly shapes: Float64Array;
  private readonly rings: Float64Array;
  private readonly tree: PackedTree | null;
  /** Index item -> slot: a box crossing the antimeridian is added twice, once on each side. */
  private readonly itemSlots: Int32Array;
  /** Position in this index -> the slot reported in `hitSlots` (the fence's own `slot`; the same for a plain index). */
  private readonly reportedSlots: Int32Array;
  private readonly seen: Int32Array;
  private readonly stack: Int32Array;
  private queryStamp = 0;
  private hitCount = 0;

  /**
   * `compiled`: fences compiled elsewhere, whose `slot` numbers another list (the engine's scoped indexes, decision
   * 033); `hitSlots` then reports those slots, while `fences`, `containment`, `isPositive` and `dwellMs` take this
   * index's own positions.
   */
  constructor(geofences: readonly StoredGeofence[], compiled?: readonly IndexedGeofence[]) {
    this.fences = compiled ?? geofences.map(compileGeofence);
    this.reportedSlots = Int32Array.from(this.fences, (fence) => fence.slot);
    const items: number[] = [];
    const boxes: number[] = [];
    const add = (slot: number, minLng: number, minLat: number, maxLng: number, maxLat: number) => {
      items.push(slot);
      boxes.push(minLng, minLat, maxLng, maxLat);
    };
    this.boxes = new Float64Array(this.fences.length * 4);
    this.shapes = new Float64Array(this.fences.length * SHAPE_FIELDS);
    let ringLength = 0;
    for (const fence of this.fences) ringLength += fence.polygon ? fence.polygon.coords.length : 0;
    this.rings = new Float64Array(ringLength);
    let ringStart = 0;
    for (const [position, fence] of this.fences.entries()) {
      const o = position * SHAPE_FIELDS;
      this.shapes[o + CENTER_LAT] = fence.centerLat;
      this.shapes[o + CENTER_LNG] = fence.centerLng;
      this.shapes[o + RADIUS] = fence.radius;
      this.shapes[o + BUFFER] = fence.bufferMeters;
      this.shapes[o + POSITIVE] = fence.positive ? 1 : 0;
      this.shapes[o + DWELL_MS] = fence.dwellMs;
      if (fence.polygon) {
        this.shapes[o + IS_POLYGON] = 1;
        this.shapes[o + REF_LNG] = fence.polygon.refLng;
        this.shapes[o + RING_START] = ringStart;
        this.shapes[o + RING_COUNT] = fence.polygon.count;
        this.rings.set(fence.polygon.coords, ringStart * 2);
        ringStart += fence.polygon.count;
      }
    }
    for (const [position, fence] of this.fences.entries()) {
      const { minLat, minLng, maxLat, maxLng } = fence.box;
      this.boxes.set([minLng, minLat, maxLng, maxLat], position * 4);
      add(position, minLng, minLat, maxLng, maxLat);
      if (maxLng > 180) add(position, minLng - 360, minLat, maxLng - 360, maxLat);
      if (minLng < -180) add(position, minLng + 360, minLat, maxLng + 360, maxLat);
    }
    this.itemSlots = Int32Array.from(items);
    this.seen = new Int32Array(this.fences.length);
    this.hitSlots = new Int32Array(16);
    this.hitCodes = new Uint8Array(16);
    if (items.length > 0) {
      // Nodes of 8: point queries check fewer boxes per leaf than flatbush's default 16 (measured, about 15 % faster).
      const tree = new Flatbush(items.length, 8);
      for (let i = 0; i < items.length; i++)
        tree.add(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
      tree.finish();
      this.tree = {
        boxes: tree._boxes as Float64Array,
        indices: tree._indices,
        levelBounds: tree._levelBounds,
        nodeSize: tree.nodeSize,
        numItems: tree.numItems,
      };
      if (!(this.tree.boxes instanceof Float64Array) || !Array.isArray(this.tree.levelBounds))
        throw new Error('unexpected flatbush layout');
      this.stack = new Int32Array(2 * tree.nodeSize * (tree._levelBounds.length + 1));
    } else {
      this.tree = null;
      this.stack = new Int32Array(0);
    }
  }

  get size(): number {
    return this.fences.length;
  }

  /**
   * The candidates for a point (every geofence whose grown box holds it) with their containment, written to
   * `hitSlots`/`hitCodes`; returns how many. Geofences not listed are outside. Allocates nothing: it walks the
   * packed flatbush tree with its own stack instead of `search()`, which builds two arrays per call.
   */
  query(lat: number, lng: number): number {
    this.hitCount = 0;
    const tree = this.tree;
    if (tree === null) return 0;
    this.queryStamp = (this.queryStamp + 1) | 0;
    if (this.queryStamp === 0) {
      this.seen.fill(0);
      this.queryStamp = 1;
    }
    const { boxes, indices, levelBounds } = tree;
    const nodeSize4 = tree.nodeSize * 4;
    const numItems4 = tree.numItems * 4;
    const stack = this.stack;
    let top = 0;
    let nodeIndex = boxes.length - 4;
    let level = levelBounds.length - 1;
    for (;;) {
      const end = Math.min(nodeIndex + nodeSize4, levelBounds[level]!);
      const isNode = nodeIndex >= numItems4;
      for (let pos = nodeIndex; pos < end; pos += 4) {
        if (lng < boxes[pos]! || lat < boxes[pos + 1]! || lng > boxes[pos + 2]! || lat > boxes[pos + 3]!) continue;
        const index = indices[pos >> 2]!;
        if (isNode) {
          stack[top++] = index;
          stack[top++] = level - 1;
        } else {
          this.hit(this.itemSlots[index]!, lat, lng);
        }
      }
      if (top === 0) break;
      level = stack[--top]!;
      nodeIndex = stack[--top]!;
    }
    return this.hitCount;
  }

  /** The candidates for a point and their containment (convenient form of `query`; a plain index only). */
  classify(lat: number, lng: number): Classification[] {
    const n = this.query(lat, lng);
    const result: Classification[] = [];
    for (let i = 0; i < n; i++) {
      result.push({
        geofence: this.fences[this.hitSlots[i]!]!.geofence,
        containment: CONTAINMENT_NAMES[this.hitCodes[i]!]!,
      });
    }
    return result;
  }

  private hit(slot: number, lat: number, lng: number) {
    if (this.seen[slot] === this.queryStamp) return;
    this.seen[slot] = this.queryStamp;
    const n = this.hitCount;
    if (n === this.hitSlots.length) this.grow();
    this.hitSlots[n] = this.reportedSlots[slot]!;
    this.hitCodes[n] = this.containment(slot, lat, lng);
    this.hitCount = n + 1;
  }

  /** The geofence's type and dwell read from the same flat record as its shape (already in cache after a query). */
  isPositive(slot: number): boolean {
    return this.shapes[slot * SHAPE_FIELDS + POSITIVE] === 1;
  }

  dwellMs(slot: number): number {
    return this.shapes[slot * SHAPE_FIELDS + DWELL_MS]!;
  }

  /** `containmentOf` for the geofence in `slot`, on the flat arrays. */
  containment(slot: number, lat: number, lng: number): number {
    const shapes = this.shapes;
    const o = slot * SHAPE_FIELDS;
    const buffer = shapes[o + BUFFER]!;
    if (shapes[o + IS_POLYGON] === 0) {
      const radius = shapes[o + RADIUS]!;
      const distance = haversineMeters(shapes[o + CENTER_LAT]!, shapes[o + CENTER_LNG]!, lat, lng);
      if (buffer > 0 && Math.abs(distance - radius) <= buffer) return EDGE;
      return distance <= radius + EDGE_TOLERANCE_METERS ? INSIDE : OUTSIDE;
    }
    const start = shapes[o + RING_START]!;
    const count = shapes[o + RING_COUNT]!;
    const refLng = shapes[o + REF_LNG]!;
    if (count < 3) return OUTSIDE;
    // RING_INSIDE, RING_OUTSIDE and RING_NEAR_BOUNDARY are INSIDE, OUTSIDE and EDGE.
    return ringContainment(this.rings, start, count, refLng, lat, lng, buffer);
  }

  /**
   * Whether the point is within `meters` of the boundary of the geofence in `slot` (a fix's accuracy): the fix cannot
   * tell which side it is on. Asked only when a fix would change a state, so it costs nothing on most fixes.
   */
  nearBoundary(slot: number, lat: number, lng: number, meters: number): boolean {
    const shapes = this.shapes;
    const o = slot * SHAPE_FIELDS;
    if (shapes[o + IS_POLYGON] === 0) {
      const distance = haversineMeters(shapes[o + CENTER_LAT]!, shapes[o + CENTER_LNG]!, lat, lng);
      return Math.abs(distance - shapes[o + RADIUS]!) <= meters;
    }
    const count = shapes[o + RING_COUNT]!;
    if (count < 3) return false;
    return ringContainment(this.rings, shapes[o + RING_START]!, count, shapes[o + REF_LNG]!, lat, lng, meters) === EDGE;
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
export function linearScanClassify(index: GeofenceIndex, lat: number, lng: number, out: Uint8Array): Uint8Array {
  const { boxes, size } = index;
  for (let slot = 0; slot < size; slot++) {
    const b = slot * 4;
    let code = OUTSIDE;
    if (lat >= boxes[b + 1]! && lat <= boxes[b + 3]!) {
      const minLng = boxes[b]!;
      const maxLng = boxes[b + 2]!;
      const inLng =
        (lng >= minLng && lng <= maxLng) ||
        (lng + 360 >= minLng && lng + 360 <= maxLng) ||
        (lng - 360 >= minLng && lng - 360 <= maxLng);
      if (inLng) code = index.containment(slot, lat, lng);
    }
    out[slot] = code;
  }
  return out;
}

export function containmentName(code: number): Containment {
  return CONTAINMENT_NAMES[code] ?? 'outside';
}
