// The geofence engine: per device and geofence, decides when a violation starts and ends (docs/CLIENT-CONTRACT.md and
// "Geofence semantics"). A violation is being inside a Positive geofence or outside a Negative one. It starts once
// the condition has held for the geofence's dwell time, and ends on the first fix where it no longer holds. Within
// the buffer at the edge the previous state is kept, so GPS jitter does not flap.
//
// Cost per fix: the index's candidates plus the device's own remembered states, never all geofences. States are
// sparse: a device remembers a geofence only when its state differs from the default. The default for a Positive
// geofence is "outside, no violation"; for a Negative geofence it is "outside, violation started" (alerted). A
// device is inside few geofences, so few states exist. A device met for the first time (or a Negative geofence
// added) gets a pending state per Negative geofence once, so leaving a Negative geofence raises its alert.
//
// Scopes (decision 033): a geofence applies to everyone, to the prisoners of some blocks, or to some prisoners. The
// index is split by scope, so a fix is tested only against the geofences that apply to its wearer. A wearer who
// changes (a prisoner moved to another block) ends the violations of geofences that no longer apply.
// Schedules (decision 034): a scheduled geofence is in the index only within its windows. At each window edge the
// index is rebuilt; a violation of a geofence whose window closed ends at the edge, reported by the next `tick`.
import type { StoredGeofence } from '@prison/shared';
import { EDGE, GeofenceIndex, INSIDE, OUTSIDE, type IndexedGeofence } from './geofence-index';
import { activeInWeek, compileSchedule, defaultTimeZone, WeekClock, weekBoundaries, type WeekIntervals } from './geofence-schedule';
import { NO_WEARER, sameWearer, ScopedGeofences, type Wearer } from './geofence-scopes';

export type { Wearer } from './geofence-scopes';

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
  /** Whom the last fix belonged to: decides which geofences apply. */
  wearer: Wearer;
}

/** What `saveDevice` copies (null: the engine had never seen the device). */
export type SavedDevice = { lastAt: number; generation: number; states: FenceState[]; wearer: Wearer } | null;

/**
 * A device's memory in a form another process can take over (cluster mode, decision 036): geofences by id, times in
 * ms. Stored in `devices.engine_state` by the process that evaluated the device last.
 */
export interface PortableDevice {
  lastAt: number;
  wearer: Wearer;
  states: { geofenceId: string; inside: boolean; since: number; started: boolean; fresh: boolean }[];
}

export interface EngineOptions {
  /** The prison's time zone (TZ) for schedules; the process's own by default. */
  timeZone?: string;
  /** The time at which the geofences are loaded (decides which schedules are open); else the first fix's. */
  now?: Date;
}

const NO_TRANSITIONS: EngineTransition[] = [];
Object.freeze(NO_TRANSITIONS);

export class GeofenceEngine {
  private index: ScopedGeofences;
  private byId = new Map<string, IndexedGeofence>();
  /** The generation in which each active Negative geofence (with its current shape) appeared, by slot. */
  private negativeGenerations = new Int32Array(0);
  private generation = 1;
  /** Every geofence loaded, active or not, and the schedules of the scheduled ones. */
  private all: StoredGeofence[] = [];
  /** Every geofence loaded in one plain index, for `containing` (fix rules, decision 064); built on first use. */
  private allIndex: GeofenceIndex | null = null;
  private schedules = new Map<string, WeekIntervals>();
  private boundaries: number[] = [];
  private readonly clock: WeekClock;
  /** The latest time seen (ms), and the next instant at which a schedule may open or close. */
  private now = -Infinity;
  private nextEdge = -Infinity;
  /** Ends at window edges, kept for the next `tick` (they concern many devices, not the fix being evaluated). */
  private closed = new Map<string, EngineTransition[]>();
  private readonly devices = new Map<string, DeviceTrack>();
  private readonly pendingDevices = new Set<DeviceTrack>();
  private fixCounter = 0;
  private marks = new Int32Array(0);
  private markCounter = 0;
  /** Transitions of the call in progress; allocated only when one happens. */
  private out: EngineTransition[] | null = null;
  /**
   * Escorts (decision 035): whether a prisoner's Negative violations are held back at time t (an escort holds). Asked
   * once per fix and once per pending device in `tick`, so it must cost O(1).
   */
  private suppress: ((prisonerId: number, t: number) => boolean) | null = null;
  /** Whether the fix being evaluated has its Negative violations held back. */
  private suppressed = false;
  /**
   * Authorised zones (fix rules, decision 099: a movement's destination and the zones on its way): whether this
   * prisoner's violation of this geofence is held back at time t. Asked only when a violation would start (and per
   * waiting state in `tick`), never per fix.
   */
  private exempt: ((prisonerId: number, geofenceId: string, t: number) => boolean) | null = null;

  constructor(geofences: StoredGeofence[], states: StoredGeofenceState[] = [], options: EngineOptions = {}) {
    this.clock = new WeekClock(options.timeZone ?? defaultTimeZone());
    this.index = new ScopedGeofences([]);
    this.setGeofences(geofences, options.now);
    this.restoreStates(states);
  }

  /**
   * An escorted prisoner outside a Negative geofence raises nothing while `predicate` answers true (the escort
   * holds): the violation stays pending, and starts at the first fix or tick after the escort ends or fails. A
   * violation already started before is left running. Positive geofences are not affected.
   */
  setNegativeSuppression(predicate: ((prisonerId: number, t: number) => boolean) | null): void {
    this.suppress = predicate;
  }

  /**
   * A violation `predicate` answers true for does not start: it waits, its dwell counted from the latest fix, and
   * starts at the first fix or tick after the authority ends. A violation already started is left running.
   */
  setZoneExemption(predicate: ((prisonerId: number, geofenceId: string, t: number) => boolean) | null): void {
    this.exempt = predicate;
  }

  private isExempt(wearer: Wearer, fence: IndexedGeofence, t: number): boolean {
    return this.exempt !== null && wearer.prisonerId !== null && this.exempt(wearer.prisonerId, fence.geofence.geofence_id, t);
  }

  private isSuppressed(wearer: Wearer, t: number): boolean {
    return this.suppress !== null && wearer.prisonerId !== null && this.suppress(wearer.prisonerId, t);
  }

  /** Every geofence loaded, within its schedule's windows or not. */
  geofences(): StoredGeofence[] {
    return [...this.all];
  }

  /** The geofences a point is strictly inside (buffers not counted), whatever their scope or schedule (decision 064). */
  containing(lat: number, lng: number): StoredGeofence[] {
    const index = (this.allIndex ??= new GeofenceIndex(this.all));
    const n = index.query(lat, lng);
    const inside: StoredGeofence[] = [];
    for (let i = 0; i < n; i++) if (index.hitCodes[i] === INSIDE) inside.push(index.fences[index.hitSlots[i]!]!.geofence);
    return inside;
  }

  /** The geofences in force now (outside their windows, scheduled ones are not), for screens and tests. */
  activeGeofences(): StoredGeofence[] {
    return this.index.fences.map((fence) => fence.geofence);
  }

  /**
   * Loads the geofences. States of removed geofences are dropped; so are those of a geofence whose shape, type,
   * scope or schedule changed (it is a different zone now). Renames, alert type, dwell and buffer changes keep the
   * states. No transitions are emitted for dropped states. `now` decides which schedules are open (else the latest
   * time the engine has seen, or the next fix's).
   */
  setGeofences(geofences: StoredGeofence[], now?: Date): void {
    this.all = [...geofences];
    this.allIndex = null;
    this.schedules = new Map();
    for (const geofence of geofences)
      if (geofence.schedule?.length) this.schedules.set(geofence.geofence_id, compileSchedule(geofence.schedule));
    this.boundaries = weekBoundaries(this.schedules.values());
    if (now !== undefined) this.now = Math.max(this.now, now.getTime());
    if (this.schedules.size === 0) {
      // Nothing scheduled: every geofence is in force, and no edge will come.
      this.rebuild(geofences);
      this.nextEdge = Infinity;
    } else if (this.now === -Infinity) {
      // No time known yet: the schedules are read at the first fix or tick.
      this.nextEdge = -Infinity;
      this.rebuild(geofences.filter((g) => !this.schedules.has(g.geofence_id)));
    } else {
      this.rebuild(this.activeAt(this.now));
      this.nextEdge = this.clock.nextEdge(this.now, this.boundaries);
    }
  }

  /** The geofences in force at an instant: unscheduled ones, and scheduled ones within a window. */
  private activeAt(t: number): StoredGeofence[] {
    if (this.schedules.size === 0) return this.all;
    const m = this.clock.minuteOfWeek(t);
    return this.all.filter((g) => {
      const intervals = this.schedules.get(g.geofence_id);
      return intervals === undefined || activeInWeek(intervals, m);
    });
  }

  /**
   * Moves the engine's time to `t`: at every window edge passed, the geofences whose window closed end their
   * violations at the edge (kept for `tick`) and the index is rebuilt with those in force.
   */
  private advance(t: number): void {
    if (t > this.now) this.now = t;
    if (this.nextEdge === -Infinity) {
      this.rebuild(this.activeAt(this.now));
      this.nextEdge = this.clock.nextEdge(this.now, this.boundaries);
      return;
    }
    while (this.now >= this.nextEdge) {
      const edge = this.nextEdge;
      const active = this.activeAt(edge);
      const activeIds = new Set(active.map((g) => g.geofence_id));
      const current = this.index.fences;
      if (active.length !== current.length || current.some((fence) => !activeIds.has(fence.id))) {
        this.closeAt(current.filter((fence) => !activeIds.has(fence.id)), edge);
        this.rebuild(active);
      }
      this.nextEdge = this.clock.nextEdge(edge, this.boundaries);
    }
  }

  /** Violations of geofences going out of force end at `at`: remembered started states, and met Negative defaults. */
  private closeAt(closing: IndexedGeofence[], at: number): void {
    if (closing.length === 0) return;
    const closingSlots = new Set(closing.map((fence) => fence.slot));
    const negatives = closing.filter((fence) => !fence.positive);
    const when = new Date(at);
    for (const device of this.devices.values()) {
      const ends: EngineTransition[] = [];
      const withState = new Set<number>();
      for (const state of device.states) {
        if (!closingSlots.has(state.slot)) continue;
        withState.add(state.slot);
        if (state.started) ends.push({ geofence: state.fence.geofence, kind: 'end', at: when });
      }
      for (const fence of negatives) {
        if (withState.has(fence.slot) || this.negativeGenerations[fence.slot]! > device.generation) continue;
        if (!this.index.appliesTo(fence.slot, device.wearer)) continue;
        ends.push({ geofence: fence.geofence, kind: 'end', at: when });
      }
      if (ends.length === 0) continue;
      const queued = this.closed.get(device.id);
      if (queued) queued.push(...ends);
      else this.closed.set(device.id, ends);
    }
  }

  /**
   * Rebuilds the index from the geofences in force. States of geofences no longer in it, or changed, are dropped
   * (without transitions); a Negative geofence new to the index (or back in force) is met afresh by every device.
   */
  private rebuild(geofences: StoredGeofence[]): void {
    const previous = this.byId;
    const previousGenerations = this.negativeGenerations;
    const index = new ScopedGeofences(geofences);
    const byId = new Map<string, IndexedGeofence>();
    const changed = new Set<string>();
    const generations = new Int32Array(index.size);
    const nextGeneration = this.generation + 1;
    let negativesAdded = false;
    for (const fence of index.fences) {
      byId.set(fence.id, fence);
      const before = previous.get(fence.id);
      const same = before !== undefined && sameZone(before.geofence, fence.geofence);
      if (before && !same) changed.add(fence.id);
      if (!fence.positive) {
        const generation = same && before ? previousGenerations[before.slot]! : nextGeneration;
        if (generation === nextGeneration) negativesAdded = true;
        generations[fence.slot] = generation;
      }
    }
    this.index = index;
    this.byId = byId;
    this.negativeGenerations = generations;
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
      if (!fence) {
        // A scheduled geofence whose window closed while the server was down: its violation ends now.
        const geofence = this.all.find((g) => g.geofence_id === stored.geofenceId);
        if (geofence && this.now !== -Infinity) {
          const end = { geofence, kind: 'end' as const, at: new Date(Math.max(this.now, stored.since.getTime())) };
          const queued = this.closed.get(stored.deviceId);
          if (queued) queued.push(end);
          else this.closed.set(stored.deviceId, [end]);
        }
        continue;
      }
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
   * older fix returns no transitions and changes nothing. The returned array must not be modified. `wearer`: the
   * device's prisoner and block (none: only the geofences of everyone apply). `accuracy` (metres, 0: unknown): a fix
   * closer to a boundary than its accuracy keeps that geofence's state, as within a buffer.
   */
  evaluate(deviceId: string, lat: number, lng: number, at: Date, wearer: Wearer = NO_WEARER, accuracy = 0): EngineTransition[] {
    const t = at.getTime();
    if (t >= this.nextEdge) this.advance(t);
    else if (t > this.now) this.now = t;
    const device = this.device(deviceId);
    if (!(t > device.lastAt)) return NO_TRANSITIONS;
    device.lastAt = t;
    const stamp = ++this.fixCounter;
    this.out = null;
    if (!sameWearer(device.wearer, wearer)) this.changeWearer(device, wearer, at);
    if (device.generation !== this.generation) this.meetNegatives(device, t);
    this.suppressed = this.isSuppressed(device.wearer, t);

    const index = this.index;
    const n = index.query(lat, lng, device.wearer);
    const slots = index.hitSlots;
    const codes = index.hitCodes;
    const states = device.states;
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      let code = codes[i]!;
      let position = -1;
      for (let k = 0; k < states.length; k++) {
        if (states[k]!.slot === slot) {
          position = k;
          break;
        }
      }
      // In the default state (outside) only a point inside changes anything; the edge keeps "outside".
      if (position === -1 && code !== INSIDE) continue;
      // A fix whose accuracy is worse than its distance to the boundary does not flip a state: it keeps the last.
      if (accuracy > 0 && code !== EDGE && (position === -1 || states[position]!.inside !== (code === INSIDE)) && index.nearBoundary(slot, lat, lng, accuracy)) {
        if (position === -1) continue;
        code = EDGE;
      }
      this.apply(device, slot, position, code, at, stamp);
    }
    // Geofences the device remembers but whose box does not hold the point: it is outside them.
    let pending = false;
    for (let k = states.length - 1; k >= 0; k--) {
      const state = states[k]!;
      if (state.seen !== stamp) {
        const unsure = accuracy > 0 && state.inside && index.nearBoundary(state.slot, lat, lng, accuracy);
        this.apply(device, state.slot, k, unsure ? EDGE : OUTSIDE, at, stamp);
        if (states[k] !== state) continue; // removed (back to the default); the one moved here was already visited
      }
      if (!state.started && state.inside === state.positive) pending = true;
    }
    this.setPending(device, pending);
    const out = this.out;
    this.out = null;
    return out ?? NO_TRANSITIONS;
  }

  /**
   * Dwell timers: violations whose dwell elapsed by `now` without a new fix; and the violations that ended when a
   * schedule's window closed (at the edge), since the last tick.
   */
  tick(now: Date): { deviceId: string; transitions: EngineTransition[] }[] {
    const nowMs = now.getTime();
    this.advance(nowMs);
    const result: { deviceId: string; transitions: EngineTransition[] }[] = [];
    for (const [deviceId, transitions] of this.closed) result.push({ deviceId, transitions });
    this.closed = new Map();
    for (const device of this.pendingDevices) {
      const transitions: EngineTransition[] = [];
      const states = device.states;
      for (let k = states.length - 1; k >= 0; k--) {
        const state = states[k]!;
        const fence = state.fence;
        if (state.started || state.inside !== fence.positive) continue;
        if (nowMs - state.since < fence.dwellMs) continue;
        if (!fence.positive && this.isSuppressed(device.wearer, nowMs)) continue;
        if (this.isExempt(device.wearer, fence, nowMs)) continue;
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
    return {
      lastAt: device.lastAt,
      generation: device.generation,
      states: device.states.map((state) => ({ ...state })),
      wearer: device.wearer,
    };
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
    device.wearer = saved.wearer;
    for (const state of saved.states) {
      const fence = this.byId.get(state.fence.id);
      if (fence && sameZone(state.fence.geofence, fence.geofence)) device.states.push({ ...state, fence, slot: fence.slot });
    }
    this.updatePending(device);
  }

  /** The device's memory for another process (null: never evaluated). */
  exportDevice(deviceId: string): PortableDevice | null {
    const device = this.devices.get(deviceId);
    if (!device || device.lastAt === -Infinity) return null;
    return {
      lastAt: device.lastAt,
      wearer: device.wearer,
      states: device.states.map((s) => ({ geofenceId: s.fence.id, inside: s.inside, since: s.since, started: s.started, fresh: s.fresh })),
    };
  }

  /**
   * Takes over a device's memory written by another process. It counts as having met every Negative geofence loaded
   * here (the processes reload geofences within a second of each other), so an alerted violation outside one is not
   * raised again; geofences this process does not know are dropped.
   */
  importDevice(deviceId: string, portable: PortableDevice | null): void {
    this.forgetDevice(deviceId);
    if (!portable) return;
    const device = this.device(deviceId);
    device.lastAt = portable.lastAt;
    device.generation = this.generation;
    device.wearer = portable.wearer;
    for (const state of portable.states) {
      const fence = this.byId.get(state.geofenceId);
      if (!fence) continue;
      device.states.push({ fence, slot: fence.slot, positive: fence.positive, inside: state.inside, since: state.since, started: state.started, fresh: state.fresh, seen: 0 });
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
    const listed = new Set<number>();
    for (const list of this.index.negativesFor(device.wearer))
      for (const fence of list) {
        if (listed.has(fence.slot)) continue;
        listed.add(fence.slot);
        if (this.negativeGenerations[fence.slot]! <= device.generation && !device.states.some((state) => state.fence === fence))
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
      negativeGeofences: this.index.negativeCount(),
      devices: this.devices.size,
      states,
      pendingDevices: this.pendingDevices.size,
    };
  }

  private device(deviceId: string): DeviceTrack {
    let device = this.devices.get(deviceId);
    if (!device) {
      device = { id: deviceId, lastAt: -Infinity, generation: 0, states: [], pending: false, wearer: NO_WEARER };
      this.devices.set(deviceId, device);
    }
    return device;
  }

  /** First fix against Negative geofences new to this device: each starts pending, as if the device had just left it. */
  private meetNegatives(device: DeviceTrack, t: number) {
    const states = device.states;
    // Mark the geofences the device already has a state for, so this stays O(states + negatives).
    const mark = this.markStates(device);
    for (const list of this.index.negativesFor(device.wearer))
      for (const fence of list) {
        if (this.negativeGenerations[fence.slot]! <= device.generation || this.marks[fence.slot] === mark) continue;
        this.marks[fence.slot] = mark; // in two lists (the wearer's block and the wearer): one state
        states.push(freshNegative(fence, t));
      }
    device.generation = this.generation;
  }

  /** Marks the slots the device holds a state for; returns the mark. */
  private markStates(device: DeviceTrack): number {
    const mark = ++this.markCounter;
    if (this.marks.length < this.index.size) this.marks = new Int32Array(this.index.size * 2);
    for (const state of device.states) this.marks[state.fence.slot] = mark;
    return mark;
  }

  /**
   * The device's wearer changed (a prisoner moved to another block, or the device given to someone else): geofences
   * that no longer apply end their violations now and are forgotten; Negative geofences that apply only now are met
   * afresh (meetNegatives does it for those the device has not met at all).
   */
  private changeWearer(device: DeviceTrack, wearer: Wearer, at: Date): void {
    const previous = device.wearer;
    device.wearer = wearer;
    const index = this.index;
    const states = device.states;
    const t = at.getTime();
    // Never evaluated (at most violations restored after a restart): only those that no longer apply end.
    const met = device.generation !== 0;
    let mark = this.markStates(device);
    // Met Negative geofences in their default (outside, alerted) that no longer apply: end.
    if (met)
      for (const list of index.negativesFor(previous))
        for (const fence of list) {
          if (this.marks[fence.slot] === mark || this.negativeGenerations[fence.slot]! > device.generation) continue;
          this.marks[fence.slot] = mark;
          if (!index.appliesTo(fence.slot, wearer)) this.emit(fence, 'end', at);
        }
    for (let k = states.length - 1; k >= 0; k--) {
      const state = states[k]!;
      if (index.appliesTo(state.slot, wearer)) continue;
      if (state.started) this.emit(state.fence, 'end', at);
      removeAt(states, k);
    }
    if (!met) return;
    mark = this.markStates(device);
    for (const list of index.negativesFor(wearer))
      for (const fence of list) {
        if (this.marks[fence.slot] === mark || this.negativeGenerations[fence.slot]! > device.generation) continue;
        this.marks[fence.slot] = mark;
        if (!index.appliesTo(fence.slot, previous)) states.push(freshNegative(fence, t));
      }
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
      // Escorted (decision 035): a Negative violation not yet started waits, its dwell counted from the latest fix.
      if (!positive && !started && this.suppressed) since = t;
      else if (!started && t - since >= dwellMs && this.isExempt(device.wearer, index.fences[slot]!, t)) since = t;
      else if (!started && t - since >= dwellMs) {
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

function freshNegative(fence: IndexedGeofence, t: number): FenceState {
  return { fence, slot: fence.slot, positive: false, inside: false, since: t, started: false, fresh: true, seen: 0 };
}

/** Same zone: the same shape, type, scope and schedule, so the states computed for it still hold. */
function sameZone(a: StoredGeofence, b: StoredGeofence): boolean {
  return (
    JSON.stringify(a.applies_to ?? null) === JSON.stringify(b.applies_to ?? null) &&
    JSON.stringify(a.schedule ?? null) === JSON.stringify(b.schedule ?? null) &&
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
