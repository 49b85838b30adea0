// Geofences indexed by whom they apply to (decision 033): one spatial index for the zones of everyone, one per block
// and one per prisoner. A fix queries the index of everyone, of its wearer's block and of its wearer, so its cost
// does not grow with zones that apply to other prisoners. Slots number the active geofences of the engine; each
// sub-index reports them.
import type { StoredGeofence } from '@prison/shared';
import { compileGeofence, GeofenceIndex, type IndexedGeofence } from './geofence-index';

/** Whom a fix belongs to: the device's prisoner and that prisoner's cell block (null when none). */
export interface Wearer {
  prisonerId: number | null;
  block: string | null;
}

export const NO_WEARER: Wearer = Object.freeze({ prisonerId: null, block: null });

export const sameWearer = (a: Wearer, b: Wearer) => a.prisonerId === b.prisonerId && a.block === b.block;

const EMPTY: readonly IndexedGeofence[] = Object.freeze([]);
/**
 * A scope with at most this many geofences is scanned, not indexed: its boxes sit side by side in one shared array,
 * so a fix reads a cache line or two instead of walking a tree of its own (per-prisoner zones are few per prisoner).
 */
const SCAN_AT_MOST = 16;

/** Scopes of few geofences: their slots and grown boxes, back to back; a scope is a range (offset, count). */
class SmallScopes {
  slots: Int32Array;
  boxes: Float64Array;
  private length = 0;

  constructor(total: number) {
    this.slots = new Int32Array(total);
    this.boxes = new Float64Array(total * 4);
  }

  /** Appends a scope; returns its range packed as offset * 32 + count. */
  add(fences: readonly IndexedGeofence[]): number {
    const offset = this.length;
    for (const fence of fences) {
      const { minLng, minLat, maxLng, maxLat } = fence.box;
      this.slots[this.length] = fence.slot;
      this.boxes.set([minLng, minLat, maxLng, maxLat], this.length * 4);
      this.length++;
    }
    return offset * 32 + fences.length;
  }
}

function push<K>(map: Map<K, IndexedGeofence[]>, key: K, fence: IndexedGeofence) {
  const list = map.get(key);
  if (list) list.push(fence);
  else map.set(key, [fence]);
}

export class ScopedGeofences {
  readonly fences: readonly IndexedGeofence[];
  hitSlots: Int32Array;
  hitCodes: Uint8Array;
  private readonly everyone: GeofenceIndex;
  /** Every active geofence by slot: the exact tests of the scanned scopes read its flat arrays. */
  private readonly all: GeofenceIndex;
  private readonly small: SmallScopes;
  /** A scope's own index, or its range in `small` (a number). */
  private readonly byBlock = new Map<string, GeofenceIndex | number>();
  private readonly byPrisoner = new Map<number, GeofenceIndex | number>();
  private readonly negativesOfEveryone: IndexedGeofence[] = [];
  private readonly negativesByBlock = new Map<string, IndexedGeofence[]>();
  private readonly negativesByPrisoner = new Map<number, IndexedGeofence[]>();
  private readonly positive: Uint8Array;
  private readonly dwell: Float64Array;
  private readonly blocksOf: (ReadonlySet<string> | null)[];
  private readonly prisonersOf: (ReadonlySet<number> | null)[];
  private mergedSlots = new Int32Array(16);
  private mergedCodes = new Uint8Array(16);
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(geofences: readonly StoredGeofence[]) {
    this.fences = geofences.map(compileGeofence);
    const size = this.fences.length;
    this.positive = new Uint8Array(size);
    this.dwell = new Float64Array(size);
    this.seen = new Int32Array(size);
    this.blocksOf = [];
    this.prisonersOf = [];
    const everyone: IndexedGeofence[] = [];
    const blocks = new Map<string, IndexedGeofence[]>();
    const prisoners = new Map<number, IndexedGeofence[]>();
    for (const fence of this.fences) {
      this.positive[fence.slot] = fence.positive ? 1 : 0;
      this.dwell[fence.slot] = fence.dwellMs;
      const scope = fence.geofence.applies_to ?? null;
      this.blocksOf.push(scope ? new Set(scope.blocks ?? []) : null);
      this.prisonersOf.push(scope ? new Set(scope.prisoner_ids ?? []) : null);
      if (!scope) {
        everyone.push(fence);
        if (!fence.positive) this.negativesOfEveryone.push(fence);
        continue;
      }
      for (const block of new Set(scope.blocks ?? [])) {
        push(blocks, block, fence);
        if (!fence.positive) push(this.negativesByBlock, block, fence);
      }
      for (const id of new Set(scope.prisoner_ids ?? [])) {
        push(prisoners, id, fence);
        if (!fence.positive) push(this.negativesByPrisoner, id, fence);
      }
    }
    this.everyone = new GeofenceIndex([], everyone);
    this.all = new GeofenceIndex([], this.fences);
    let scanned = 0;
    for (const list of [...blocks.values(), ...prisoners.values()]) if (list.length <= SCAN_AT_MOST) scanned += list.length;
    this.small = new SmallScopes(scanned);
    const scope = (list: IndexedGeofence[]) => (list.length <= SCAN_AT_MOST ? this.small.add(list) : new GeofenceIndex([], list));
    for (const [block, list] of blocks) this.byBlock.set(block, scope(list));
    for (const [id, list] of prisoners) this.byPrisoner.set(id, scope(list));
    this.hitSlots = this.everyone.hitSlots;
    this.hitCodes = this.everyone.hitCodes;
  }

  get size(): number {
    return this.fences.length;
  }

  isPositive(slot: number): boolean {
    return this.positive[slot] === 1;
  }

  dwellMs(slot: number): number {
    return this.dwell[slot]!;
  }

  /** Whether the point is within `meters` of the boundary of the geofence in `slot` (`GeofenceIndex.nearBoundary`). */
  nearBoundary(slot: number, lat: number, lng: number, meters: number): boolean {
    return this.all.nearBoundary(slot, lat, lng, meters);
  }

  /** Does the geofence in `slot` apply to the wearer? */
  appliesTo(slot: number, wearer: Wearer): boolean {
    const blocks = this.blocksOf[slot];
    if (!blocks) return true;
    return (wearer.block !== null && blocks.has(wearer.block)) || (wearer.prisonerId !== null && this.prisonersOf[slot]!.has(wearer.prisonerId));
  }

  /** The Negative geofences that apply to the wearer, in up to three lists (a geofence may be in two). */
  negativesFor(wearer: Wearer): readonly (readonly IndexedGeofence[])[] {
    return [
      this.negativesOfEveryone,
      (wearer.block !== null && this.negativesByBlock.get(wearer.block)) || EMPTY,
      (wearer.prisonerId !== null && this.negativesByPrisoner.get(wearer.prisonerId)) || EMPTY,
    ];
  }

  /** Every Negative geofence (for sizes). */
  negativeCount(): number {
    let n = 0;
    for (const fence of this.fences) if (!fence.positive) n++;
    return n;
  }

  /**
   * The candidates for a point among the geofences that apply to the wearer, written to `hitSlots`/`hitCodes` (slots
   * of `fences`); returns how many. Allocates nothing. With no scoped index for the wearer it is one query.
   */
  query(lat: number, lng: number, wearer: Wearer): number {
    const block = wearer.block !== null ? this.byBlock.get(wearer.block) : undefined;
    const prisoner = wearer.prisonerId !== null ? this.byPrisoner.get(wearer.prisonerId) : undefined;
    if (block === undefined && prisoner === undefined) {
      const n = this.everyone.query(lat, lng);
      this.hitSlots = this.everyone.hitSlots;
      this.hitCodes = this.everyone.hitCodes;
      return n;
    }
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    let count = this.collect(this.everyone, lat, lng, 0);
    if (block !== undefined) count = this.collect(block, lat, lng, count);
    if (prisoner !== undefined) count = this.collect(prisoner, lat, lng, count);
    this.hitSlots = this.mergedSlots;
    this.hitCodes = this.mergedCodes;
    return count;
  }

  private collect(index: GeofenceIndex | number, lat: number, lng: number, count: number): number {
    if (typeof index === 'number') return this.scan(index, lat, lng, count);
    const n = index.query(lat, lng);
    if (n === 0) return count;
    const slots = index.hitSlots;
    const codes = index.hitCodes;
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      if (this.seen[slot] === this.stamp) continue; // a geofence for the wearer's block and for the wearer
      this.seen[slot] = this.stamp;
      if (count === this.mergedSlots.length) this.grow();
      this.mergedSlots[count] = slot;
      this.mergedCodes[count] = codes[i]!;
      count++;
    }
    return count;
  }

  /** A small scope: its boxes one after another, then the exact test of those that hold the point. */
  private scan(range: number, lat: number, lng: number, count: number): number {
    const { slots, boxes } = this.small;
    const end = Math.floor(range / 32) + (range % 32);
    for (let k = Math.floor(range / 32); k < end; k++) {
      const b = k * 4;
      if (lat < boxes[b + 1]! || lat > boxes[b + 3]!) continue;
      const minLng = boxes[b]!;
      const maxLng = boxes[b + 2]!;
      const inLng =
        (lng >= minLng && lng <= maxLng) || (lng + 360 >= minLng && lng + 360 <= maxLng) || (lng - 360 >= minLng && lng - 360 <= maxLng);
      if (!inLng) continue;
      const slot = slots[k]!;
      if (this.seen[slot] === this.stamp) continue;
      this.seen[slot] = this.stamp;
      if (count === this.mergedSlots.length) this.grow();
      this.mergedSlots[count] = slot;
      this.mergedCodes[count] = this.all.containment(slot, lat, lng);
      count++;
    }
    return count;
  }

  private grow() {
    const slots = new Int32Array(this.mergedSlots.length * 2);
    slots.set(this.mergedSlots);
    const codes = new Uint8Array(this.mergedCodes.length * 2);
    codes.set(this.mergedCodes);
    this.mergedSlots = slots;
    this.mergedCodes = codes;
  }
}
