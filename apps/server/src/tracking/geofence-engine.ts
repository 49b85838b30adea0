// The geofence engine: per device and geofence, decides when a violation starts and ends (DECISIONS.md item 2 and
// "Geofence semantics"). A violation is being inside a Positive geofence or outside a Negative one. It starts once
// the condition has held for the geofence's dwell time, and ends on the first fix where it no longer holds. Within
// the buffer at the edge the previous state is kept, so GPS jitter does not flap.
//
// Cost per fix: the index's candidates plus the device's own remembered states, never all geofences. States are
// sparse: a device remembers a geofence only when its state differs from the default. The default for a Positive
// geofence is "outside, no violation"; for a Negative geofence it is "outside, violation started" (alerted). A
// device is inside few geofences, so few states exist. A device met for the first time (or a Negative geofence
// added) gets a pending state per Negative geofence once, so leaving a Negative geofence raises its alert.
import type { StoredGeofence } from '@prison/shared';
import { EDGE, GeofenceIndex, INSIDE, OUTSIDE, type IndexedGeofence } from './geofence-index';

export interface EngineTransition {
  geofence: StoredGeofence;
  kind: 'start' | 'end';
  at: Date;
}

/** A running violation as stored in `geofence_states`: rows with `violating: true` had their 'start' emitted. */
export interface StoredGeofenceState {
  deviceId: string;
  geofenceId: string;
  violating: boolean;
  since: Date;
}

/** What one device remembers about one geofence (only when it differs from the default). */
interface FenceState {
  fence: IndexedGeofence;
  /** The geofence's slot in the current index, and its type (copied so the hot loop touches only this object). */
  slot: number;
  positive: boolean;
  /** Believed containment; 'edge' keeps it. */
  inside: boolean;
  /** When the violating condition began (ms), while it holds. */
  since: number;
  /** A 'start' was emitted and no 'end' since. */
  started: boolean;
  /** Created for a device that has never been evaluated against this Negative geofence. */
  fresh: boolean;
  /** The fix counter of the last fix that examined this state. */
  seen: number;
}

interface DeviceTrack {
  id: string;
  /** Time (ms) of the latest fix evaluated. */
  lastAt: number;
  /** The engine's Negative-geofence generation this device has states for. */
  generation: number;
  states: FenceState[];
  /** Holds a state whose dwell is still running (checked by `tick`). */
  pending: boolean;
}

interface NegativeEntry {
  fence: IndexedGeofence;
  /** The generation in which this Negative geofence (with its current shape) appeared. */
  generation: number;
}

/** What `saveDevice` copies (null: the engine had never seen the device). */
export type SavedDevice = { lastAt: number; generation: number; states: FenceState[] } | null;

const NO_TRANSITIONS: EngineTransition[] = [];
Object.freeze(NO_TRANSITIONS);

export class GeofenceEngine {
  private index: GeofenceIndex;
  private byId = new Map<string, IndexedGeofence>();
  private negatives: NegativeEntry[] = [];
  private generation = 1;
  private readonly devices = new Map<string, DeviceTrack>();
  private readonly pendingDevices = new Set<DeviceTrack>();
  private fixCounter = 0;
  private marks = new Int32Array(0);
  private markCounter = 0;
  /** Transitions of the call in progress; allocated only when one happens. */
  private out: EngineTransition[] | null = null;

  constructor(geofences: StoredGeofence[], states: StoredGeofenceState[] = []) {
    this.index = new GeofenceIndex([]);
    this.setGeofences(geofences);
    this.restoreStates(states);
  }

  geofences(): StoredGeofence[] {
    return this.index.fences.map((fence) => fence.geofence);
  }

  /**
   * Rebuilds the index. States of removed geofences are dropped; so are those of a geofence whose shape or type
   * changed (it is a different zone now). Renames, alert type, dwell and buffer changes keep the states.
   * No transitions are emitted for dropped states.
   */
  setGeofences(geofences: StoredGeofence[]): void {
    const previous = this.byId;
    const previousGenerations = new Map(this.negatives.map((entry) => [entry.fence.id, entry.generation]));
    const index = new GeofenceIndex(geofences);
    const byId = new Map<string, IndexedGeofence>();
    const changed = new Set<string>();
    const negatives: NegativeEntry[] = [];
    const nextGeneration = this.generation + 1;
    let negativesAdded = false;
    for (const fence of index.fences) {
      byId.set(fence.id, fence);
      const before = previous.get(fence.id);
      const same = before !== undefined && sameZone(before.geofence, fence.geofence);
      if (before && !same) changed.add(fence.id);
      if (!fence.positive) {
        const generation = same ? (previousGenerations.get(fence.id) ?? nextGeneration) : nextGeneration;
        if (generation === nextGeneration) negativesAdded = true;
        negatives.push({ fence, generation });
      }
    }
    this.index = index;
    this.byId = byId;
    this.negatives = negatives;
    if (negativesAdded) this.generation = nextGeneration;
    for (const device of this.devices.values()) {
      const states = device.states;
      for (let i = states.length - 1; i >= 0; i--) {
        const fence = byId.get(states[i]!.fence.id);
        if (!fence || changed.has(fence.id)) {
          removeAt(states, i);
        } else {
          states[i]!.fence = fence;
          states[i]!.slot = fence.slot;
        }
      }
      this.updatePending(device);
    }
  }

  /** Marks violations already running (their 'start' was emitted before a restart), so they are not raised again. */
  restoreStates(states: StoredGeofenceState[]): void {
    for (const stored of states) {
      if (!stored.violating) continue;
      const fence = this.byId.get(stored.geofenceId);
      if (!fence) continue;
      const device = this.device(stored.deviceId);
      const since = stored.since.getTime();
      const existing = device.states.find((state) => state.fence === fence);
      if (existing) {
        existing.started = true;
        existing.since = since;
        existing.inside = fence.positive;
        existing.fresh = false;
      } else {
        device.states.push({
          fence,
          slot: fence.slot,
          positive: fence.positive,
          inside: fence.positive,
          since,
          started: true,
          fresh: false,
          seen: 0,
        });
      }
      this.updatePending(device);
    }
  }

  /**
   * One fix of a device, in time order (the caller drops fixes older than the device's latest). A repeated or
   * older fix returns no transitions and changes nothing. The returned array must not be modified.
   */
  evaluate(deviceId: string, lat: number, lng: number, at: Date): EngineTransition[] {
    const t = at.getTime();
    const device = this.device(deviceId);
    if (!(t > device.lastAt)) return NO_TRANSITIONS;
    device.lastAt = t;
    const stamp = ++this.fixCounter;
    this.out = null;
    if (device.generation !== this.generation) this.meetNegatives(device, t);

    const index = this.index;
    const n = index.query(lat, lng);
    const slots = index.hitSlots;
    const codes = index.hitCodes;
    const states = device.states;
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      const code = codes[i]!;
      let position = -1;
      for (let k = 0; k < states.length; k++) {
        if (states[k]!.slot === slot) {
          position = k;
          break;
        }
      }
      // In the default state (outside) only a point inside changes anything; the edge keeps "outside".
      if (position === -1 && code !== INSIDE) continue;
      this.apply(device, slot, position, code, at, stamp);
    }
    // Geofences the device remembers but whose box does not hold the point: it is outside them.
    let pending = false;
    for (let k = states.length - 1; k >= 0; k--) {
      const state = states[k]!;
      if (state.seen !== stamp) {
        this.apply(device, state.slot, k, OUTSIDE, at, stamp);
        if (states[k] !== state) continue; // removed (back to the default); the one moved here was already visited
      }
      if (!state.started && state.inside === state.positive) pending = true;
    }
    this.setPending(device, pending);
    const out = this.out;
    this.out = null;
    return out ?? NO_TRANSITIONS;
  }

  /** Dwell timers: violations whose dwell elapsed by `now` without a new fix. */
  tick(now: Date): { deviceId: string; transitions: EngineTransition[] }[] {
    const nowMs = now.getTime();
    const result: { deviceId: string; transitions: EngineTransition[] }[] = [];
    for (const device of this.pendingDevices) {
      const transitions: EngineTransition[] = [];
      const states = device.states;
      for (let k = states.length - 1; k >= 0; k--) {
        const state = states[k]!;
        const fence = state.fence;
        if (state.started || state.inside !== fence.positive) continue;
        if (nowMs - state.since < fence.dwellMs) continue;
        state.started = true;
        transitions.push({ geofence: fence.geofence, kind: 'start', at: new Date(state.since + fence.dwellMs) });
        if (!fence.positive) removeAt(states, k); // outside a Negative geofence, alerted: the default state
      }
      this.updatePending(device);
      if (transitions.length > 0) result.push({ deviceId: device.id, transitions });
    }
    return result;
  }

  /** A copy of what the engine knows about one device, to put back when the fixes evaluated since were not stored. */
  saveDevice(deviceId: string): SavedDevice {
    const device = this.devices.get(deviceId);
    if (!device) return null;
    return { lastAt: device.lastAt, generation: device.generation, states: device.states.map((state) => ({ ...state })) };
  }

  /**
   * Puts back a device as `saveDevice` copied it. States of a geofence removed or reshaped since (a reload while the
   * fixes were being written) are dropped, as `setGeofences` drops them.
   */
  restoreDevice(deviceId: string, saved: SavedDevice): void {
    this.forgetDevice(deviceId);
    if (!saved) return;
    const device = this.device(deviceId);
    device.lastAt = saved.lastAt;
    device.generation = saved.generation;
    for (const state of saved.states) {
      const fence = this.byId.get(state.fence.id);
      if (fence && sameZone(state.fence.geofence, fence.geofence)) device.states.push({ ...state, fence, slot: fence.slot });
    }
    this.updatePending(device);
  }

  forgetDevice(deviceId: string): void {
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.pendingDevices.delete(device);
    this.devices.delete(deviceId);
  }

  /** The geofences a device is violating now (alerted), for screens and tests. */
  activeViolations(deviceId: string): StoredGeofence[] {
    const device = this.devices.get(deviceId);
    if (!device) return [];
    const result: StoredGeofence[] = [];
    for (const state of device.states) if (state.started) result.push(state.fence.geofence);
    // Negative geofences the device has met and holds no state for are in their default: outside and alerted.
    for (const { fence, generation } of this.negatives) {
      if (generation <= device.generation && !device.states.some((state) => state.fence === fence))
        result.push(fence.geofence);
    }
    return result;
  }

  /** Sizes for health checks and tests: states stay few because only non-default states are kept. */
  stats(): { geofences: number; negativeGeofences: number; devices: number; states: number; pendingDevices: number } {
    let states = 0;
    for (const device of this.devices.values()) states += device.states.length;
    return {
      geofences: this.index.size,
      negativeGeofences: this.negatives.length,
      devices: this.devices.size,
      states,
      pendingDevices: this.pendingDevices.size,
    };
  }

  private device(deviceId: string): DeviceTrack {
    let device = this.devices.get(deviceId);
    if (!device) {
      device = { id: deviceId, lastAt: -Infinity, generation: 0, states: [], pending: false };
      this.devices.set(deviceId, device);
    }
    return device;
  }

  /** First fix against Negative geofences new to this device: each starts pending, as if the device had just left it. */
  private meetNegatives(device: DeviceTrack, t: number) {
    const states = device.states;
    // Mark the geofences the device already has a state for, so this stays O(states + negatives).
    const mark = ++this.markCounter;
    if (this.marks.length < this.index.size) this.marks = new Int32Array(this.index.size * 2);
    for (const state of states) this.marks[state.fence.slot] = mark;
    for (const { fence, generation } of this.negatives) {
      if (generation <= device.generation || this.marks[fence.slot] === mark) continue;
      states.push({
        fence,
        slot: fence.slot,
        positive: false,
        inside: false,
        since: t,
        started: false,
        fresh: true,
        seen: 0,
      });
    }
    device.generation = this.generation;
  }

  /**
   * Applies one fix's containment to one (device, geofence) pair; `position` is the state's index or -1. Reads the
   * geofence's numbers from the index's flat record; the geofence object is touched only to emit or remember.
   */
  private apply(device: DeviceTrack, slot: number, position: number, code: number, at: Date, stamp: number) {
    const t = at.getTime();
    const index = this.index;
    const states = device.states;
    const state = position === -1 ? null : states[position]!;
    const positive = index.isPositive(slot);
    const dwellMs = index.dwellMs(slot);
    const wasInside = state !== null ? state.inside : false;
    let started = state !== null ? state.started : !positive;
    let since = state !== null ? state.since : 0;
    // Within the buffer the previous state holds; with none yet, the benefit of the doubt (not violating).
    const inside = code === INSIDE ? true : code === EDGE ? (state !== null && state.fresh ? true : wasInside) : false;
    const violating = positive ? inside : !inside;
    const wasViolating = positive ? wasInside : !wasInside;
    if (violating) {
      if (!wasViolating) since = t;
      if (!started && t - since >= dwellMs) {
        started = true;
        // The violation counts from when its dwell elapsed (the fix itself when there is no dwell).
        const startedAt = since + dwellMs;
        this.emit(index.fences[slot]!, 'start', startedAt === t ? at : new Date(startedAt));
      }
    } else if (started) {
      started = false;
      this.emit(index.fences[slot]!, 'end', at);
    }
    const isDefault = positive ? !inside : !inside && started;
    if (isDefault) {
      if (state !== null) removeAt(states, position);
    } else if (state !== null) {
      state.inside = inside;
      state.started = started;
      state.since = since;
      state.fresh = false;
      state.seen = stamp;
    } else {
      states.push({ fence: index.fences[slot]!, slot, positive, inside, since, started, fresh: false, seen: stamp });
    }
  }

  private emit(fence: IndexedGeofence, kind: 'start' | 'end', at: Date) {
    (this.out ??= []).push({ geofence: fence.geofence, kind, at });
  }

  private updatePending(device: DeviceTrack) {
    this.setPending(
      device,
      device.states.some((state) => !state.started && state.inside === state.positive),
    );
  }

  private setPending(device: DeviceTrack, pending: boolean) {
    if (pending === device.pending) return;
    device.pending = pending;
    if (pending) this.pendingDevices.add(device);
    else this.pendingDevices.delete(device);
  }
}

/** Same zone: the same shape and type, so the states computed for it still hold. */
function sameZone(a: StoredGeofence, b: StoredGeofence): boolean {
  return (
    a.shape === b.shape &&
    a.type === b.type &&
    a.radius === b.radius &&
    a.center_lat === b.center_lat &&
    a.center_lng === b.center_lng &&
    JSON.stringify(a.coordinates) === JSON.stringify(b.coordinates)
  );
}

/** Removes by moving the last element into the hole (order does not matter). */
function removeAt<T>(list: T[], index: number) {
  const last = list.pop()!;
  if (index < list.length) list[index] = last;
}
