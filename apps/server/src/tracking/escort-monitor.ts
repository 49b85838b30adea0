// Escorts on live positions (decision 035). Pure and in memory: the escorts in force, indexed by
// prisoner and by officer, each side's newest position, and per escort since when the two are apart. A fix costs
// O(escorts of that person) (one, nearly always). Further apart than the escort's distance for longer than
// ESCORT_SEPARATION_SECONDS raises one Critical alert ("unescorted"), measured from the fixes and, when fixes stop
// while apart, by `tick`; it ends when they are close again. While an escort holds, the prisoner's Negative geofences
// raise nothing (`holds`, asked by the geofence engine). An escort holds only while it is proven (decision 037): in
// force, monitored, the officer's tracker theirs and online, the officer's position known and at most 30 s old
// (decision 092), and not failed; any proof missing and the perimeter alerts as usual.
import { ESCORT_NOT_ESCORTING, ESCORT_OFFICER_FIX_MAX_AGE_SECONDS, ESCORT_SEPARATION_SECONDS, escortSeparatedReason, haversineMeters } from '@prison/shared';

export interface EscortRef {
  id: number;
  prisonerId: number;
  staffId: number;
  maxDistanceM: number;
  /** In force from (ms) and until (ms, null: until ended). */
  from: number;
  until: number | null;
  /** How the alert names the officer. */
  staffName: string;
  /** The officer's tracker as stored with the staff member (null: none). */
  officerDeviceId: string | null;
  /** Recorded without a tracked officer: exempts nothing (decision 037). */
  unmonitored: boolean;
}

/** The officer's tracker as the device registry knows it: 'none' when it is gone or now worn by someone else. */
export type OfficerTracker = (deviceId: string, staffId: number) => 'online' | 'offline' | 'none';

/** Why an escort does not hold now (decision 037); null: it holds. */
export type EscortLapse = 'not-in-force' | 'separated' | keyof typeof ESCORT_NOT_ESCORTING;

/** What the API says of an escort: whether it is escorting now, and why not in the operator's words. */
export interface EscortStatus {
  escorting: boolean;
  reason: string | null;
}

export interface EscortPosition {
  deviceId: string;
  /** How the alert names this person. */
  name: string;
  lat: number;
  lng: number;
  at: Date;
}

/** An escort that failed (unescorted: a Critical alert) or came together again (the alert ends). */
export interface EscortEvent {
  kind: 'unescorted' | 'rejoined';
  escortId: number;
  prisonerId: number;
  /** The prisoner's tracker and name: the alert is theirs. */
  prisoner: EscortPosition;
  staffName: string;
  distanceMetres: number;
  at: Date;
}

interface EscortState extends EscortRef {
  /** Time (ms) of the first fix that found them apart; null while close (or unknown). */
  separatedSince: number | null;
  /** The latest distance measured (m). */
  distance: number;
  /** Apart for longer than the limit, alerted, and not close again since: the escort has failed. */
  failed: boolean;
}

type SavedState = Pick<EscortState, 'separatedSince' | 'distance' | 'failed'>;

/** One person's part of the state, copied before a batch and put back when the batch is not stored. */
export interface SavedEscorts {
  position: EscortPosition | undefined;
  states: [EscortState, SavedState][];
}

export const SEPARATION_MS = ESCORT_SEPARATION_SECONDS * 1000;
export const OFFICER_FIX_MAX_AGE_MS = ESCORT_OFFICER_FIX_MAX_AGE_SECONDS * 1000;

export function escortAlertMessage(event: EscortEvent): string {
  return `${event.prisoner.name} is unescorted (${Math.round(event.distanceMetres)} m from ${event.staffName})`;
}

const inForce = (escort: EscortRef, t: number) => escort.from <= t && (escort.until === null || t < escort.until);

export class EscortMonitor {
  private readonly byId = new Map<number, EscortState>();
  private readonly byPrisoner = new Map<number, EscortState[]>();
  private readonly byStaff = new Map<number, EscortState[]>();
  private readonly prisonerPositions = new Map<number, EscortPosition>();
  private readonly staffPositions = new Map<number, EscortPosition>();
  /** Escorts apart and not yet alerted: what `tick` looks at. */
  private readonly separated = new Set<EscortState>();
  private count = 0;

  /** `officerTracker` answers whether the officer's tracker is theirs and online: one map lookup (O(1)). */
  constructor(private readonly officerTracker: OfficerTracker) {}

  get size(): number {
    return this.count;
  }

  /** Replaces the escorts; one that stays keeps its state, so a reload raises nothing again. */
  setEscorts(refs: EscortRef[]): void {
    const previous = new Map<number, EscortState>();
    for (const list of this.byPrisoner.values()) for (const e of list) previous.set(e.id, e);
    this.byId.clear();
    this.byPrisoner.clear();
    this.byStaff.clear();
    this.separated.clear();
    for (const ref of refs) {
      const old = previous.get(ref.id);
      const state: EscortState = { ...ref, separatedSince: old?.separatedSince ?? null, distance: old?.distance ?? 0, failed: old?.failed ?? false };
      if (state.separatedSince !== null && !state.failed) this.separated.add(state);
      this.byId.set(ref.id, state);
      push(this.byPrisoner, ref.prisonerId, state);
      push(this.byStaff, ref.staffId, state);
    }
    this.count = refs.length;
  }

  /** Whether this prisoner or officer is in any escort: one map lookup, so everyone else costs nothing more per fix. */
  watches(prisonerId: number | null, staffId: number | null): boolean {
    return prisonerId !== null ? this.byPrisoner.has(prisonerId) : staffId !== null && this.byStaff.has(staffId);
  }

  /** Whether an escort of this prisoner holds at t (in force and proven): their Negative geofences wait. O(1). */
  holds(prisonerId: number, t: number): boolean {
    const list = this.byPrisoner.get(prisonerId);
    if (!list) return false;
    for (const escort of list) if (this.lapse(escort, t) === null) return true;
    return false;
  }

  /**
   * Why an escort does not hold at t, or null when it holds. Every proof is checked each time it is asked, so a
   * proof that goes missing (a tracker taken away or silent, its last fix too old) ends the exemption at once; a
   * separation ends it only after ESCORT_SEPARATION_SECONDS (GPS wanders), which `failed` records.
   */
  private lapse(escort: EscortState, t: number): EscortLapse | null {
    if (!inForce(escort, t)) return 'not-in-force';
    if (escort.unmonitored) return 'unmonitored';
    const tracker = escort.officerDeviceId === null ? 'none' : this.officerTracker(escort.officerDeviceId, escort.staffId);
    if (tracker === 'none') return 'no-tracker';
    const officer = this.staffPositions.get(escort.staffId);
    if (!officer) return 'no-position';
    if (tracker === 'offline') return 'offline';
    // On the clock of everything here (t: the prisoner's fix or the tick): a quiet tracker turns offline only after
    // DEVICE_OFFLINE_SECONDS, and for all that time the officer could be anywhere.
    if (t - officer.at.getTime() > OFFICER_FIX_MAX_AGE_MS) return 'stale';
    if (escort.failed) return 'separated';
    return null;
  }

  /** The escort's state for the API; an escort this monitor does not hold (ended, over) is not escorting. */
  status(escortId: number, t: number): EscortStatus {
    const escort = this.byId.get(escortId);
    const lapse = escort ? this.lapse(escort, t) : 'not-in-force';
    if (lapse === null) return { escorting: true, reason: null };
    const reason =
      lapse === 'not-in-force'
        ? null
        : lapse === 'separated'
          ? escortSeparatedReason(escort!.distance, escort!.maxDistanceM)
          : ESCORT_NOT_ESCORTING[lapse];
    return { escorting: false, reason };
  }

  /**
   * A position known before this escort was loaded (the stored last fix after a restart, or a fix from before the
   * escort began), remembered without judging: the next fix judges. Kept only for people in an escort, and only when
   * newer than the one held.
   */
  rememberPrisoner(prisonerId: number, position: EscortPosition): void {
    if (this.byPrisoner.has(prisonerId)) rememberNewer(this.prisonerPositions, prisonerId, position);
  }

  rememberStaff(staffId: number, position: EscortPosition): void {
    if (this.byStaff.has(staffId)) rememberNewer(this.staffPositions, staffId, position);
  }

  /** The prisoner's newest position: answers the escorts it fails or brings back together. */
  updatePrisoner(prisonerId: number, position: EscortPosition): EscortEvent[] {
    const list = this.byPrisoner.get(prisonerId);
    // Only escorted prisoners are remembered: the others cost one map lookup per fix.
    if (!list) return [];
    this.prisonerPositions.set(prisonerId, position);
    return this.judge(list, position.at.getTime());
  }

  /** The officer's newest position. */
  updateStaff(staffId: number, position: EscortPosition): EscortEvent[] {
    const list = this.byStaff.get(staffId);
    if (!list) return [];
    this.staffPositions.set(staffId, position);
    return this.judge(list, position.at.getTime());
  }

  /** Separations that passed the limit by `now` without a new fix (the prisoner's or officer's tracker went quiet). */
  tick(now: Date): EscortEvent[] {
    const t = now.getTime();
    const events: EscortEvent[] = [];
    for (const escort of this.separated) {
      if (!inForce(escort, t)) continue;
      if (t - escort.separatedSince! <= SEPARATION_MS) continue;
      const prisoner = this.prisonerPositions.get(escort.prisonerId);
      if (!prisoner) continue;
      escort.failed = true;
      this.separated.delete(escort);
      events.push(this.event('unescorted', escort, prisoner, new Date(escort.separatedSince! + SEPARATION_MS)));
    }
    return events;
  }

  savePrisoner(prisonerId: number): SavedEscorts {
    return this.save(this.prisonerPositions.get(prisonerId), this.byPrisoner.get(prisonerId));
  }

  saveStaff(staffId: number): SavedEscorts {
    return this.save(this.staffPositions.get(staffId), this.byStaff.get(staffId));
  }

  restorePrisoner(prisonerId: number, saved: SavedEscorts): void {
    this.restore(this.prisonerPositions, prisonerId, saved);
  }

  restoreStaff(staffId: number, saved: SavedEscorts): void {
    this.restore(this.staffPositions, staffId, saved);
  }

  private save(position: EscortPosition | undefined, list: EscortState[] | undefined): SavedEscorts {
    return { position, states: (list ?? []).map((e) => [e, { separatedSince: e.separatedSince, distance: e.distance, failed: e.failed }]) };
  }

  private restore(positions: Map<number, EscortPosition>, id: number, saved: SavedEscorts): void {
    if (saved.position) positions.set(id, saved.position);
    else positions.delete(id);
    for (const [state, copy] of saved.states) {
      Object.assign(state, copy);
      if (state.separatedSince !== null && !state.failed) this.separated.add(state);
      else this.separated.delete(state);
    }
  }

  private judge(list: EscortState[], t: number): EscortEvent[] {
    let events: EscortEvent[] | null = null;
    for (const escort of list) {
      const prisoner = this.prisonerPositions.get(escort.prisonerId);
      const officer = this.staffPositions.get(escort.staffId);
      // An unmonitored escort is a record only: nothing to measure, nothing to raise.
      if (!prisoner || !officer || escort.unmonitored || !inForce(escort, t)) continue;
      const distance = haversineMeters(prisoner.lat, prisoner.lng, officer.lat, officer.lng);
      escort.distance = distance;
      if (distance > escort.maxDistanceM) {
        if (escort.separatedSince === null) escort.separatedSince = t;
        if (escort.failed) continue;
        if (t - escort.separatedSince > SEPARATION_MS) {
          escort.failed = true;
          this.separated.delete(escort);
          (events ??= []).push(this.event('unescorted', escort, prisoner, new Date(t)));
        } else {
          this.separated.add(escort);
        }
      } else {
        escort.separatedSince = null;
        this.separated.delete(escort);
        if (escort.failed) {
          escort.failed = false;
          (events ??= []).push(this.event('rejoined', escort, prisoner, new Date(t)));
        }
      }
    }
    return events ?? [];
  }

  private event(kind: EscortEvent['kind'], escort: EscortState, prisoner: EscortPosition, at: Date): EscortEvent {
    return { kind, escortId: escort.id, prisonerId: escort.prisonerId, prisoner, staffName: escort.staffName, distanceMetres: escort.distance, at };
  }
}

function rememberNewer(positions: Map<number, EscortPosition>, id: number, position: EscortPosition): void {
  const held = positions.get(id);
  if (!held || held.at < position.at) positions.set(id, position);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
