// Keep-apart pairs on live positions (decision 032). Pure and in memory: an index prisoner -> active pairs,
// each prisoner's newest position, and whether each pair is meeting. A fix costs O(pairs of that prisoner).
// A meeting starts when the two are within `metres` of each other (one alert) and ends only when they are further
// apart than `metres + hysteresis`, so GPS jitter around the threshold does not raise it again.
import { haversineMeters } from '@prison/shared';

export interface KeepApartPairRef {
  id: number;
  a: number;
  b: number;
}

export interface MonitoredPosition {
  prisonerId: number;
  deviceId: string;
  /** How the alert names this prisoner. */
  name: string;
  lat: number;
  lng: number;
  at: Date;
}

/** A meeting that has just started: one Warning alert naming both prisoners. */
export interface KeepApartMeeting {
  pairId: number;
  /** The prisoner whose fix brought the pair together, and the other one. */
  mover: MonitoredPosition;
  other: MonitoredPosition;
  distanceMetres: number;
  at: Date;
}

interface PairState extends KeepApartPairRef {
  meeting: boolean;
}

/** One prisoner's part of the state, copied before a batch and put back when the batch is not stored. */
export interface SavedKeepApart {
  position: MonitoredPosition | undefined;
  meetings: [number, boolean][];
}

export interface KeepApartOptions {
  metres: number;
  hysteresisMetres: number;
  /** A partner's position older than this (relative to the fix) is not compared: their tracker may be silent. */
  maxAgeMs: number;
}

export function keepApartAlertMessage(meeting: KeepApartMeeting): string {
  return `${meeting.mover.name} and ${meeting.other.name} must be kept apart and are ${Math.round(meeting.distanceMetres)} m from each other`;
}

export class KeepApartMonitor {
  private readonly byPrisoner = new Map<number, PairState[]>();
  private readonly positions = new Map<number, MonitoredPosition>();
  private pairCount = 0;
  /** Pairs whose meeting ended since the last `takeEnded` (cluster mode clears their flag in the database). */
  private ended: number[] = [];

  constructor(readonly options: KeepApartOptions) {}

  get size(): number {
    return this.pairCount;
  }

  /** Replaces the active pairs; a pair that stays keeps its meeting state, so a reload raises nothing again. */
  setPairs(pairs: KeepApartPairRef[]): void {
    const meeting = new Set<number>();
    for (const list of this.byPrisoner.values()) for (const p of list) if (p.meeting) meeting.add(p.id);
    this.byPrisoner.clear();
    for (const pair of pairs) {
      const state: PairState = { ...pair, meeting: meeting.has(pair.id) };
      for (const id of [pair.a, pair.b]) {
        const list = this.byPrisoner.get(id);
        if (list) list.push(state);
        else this.byPrisoner.set(id, [state]);
      }
    }
    this.pairCount = pairs.length;
  }

  /** Whether this prisoner is in any active pair: one map lookup. */
  watches(prisonerId: number): boolean {
    return this.byPrisoner.has(prisonerId);
  }

  /** The prisoner's newest position: answers the meetings it starts (ends need no alert). */
  update(position: MonitoredPosition): KeepApartMeeting[] {
    const pairs = this.byPrisoner.get(position.prisonerId);
    // Only prisoners in a pair are remembered: the others cost one map lookup per fix.
    if (!pairs) return [];
    this.positions.set(position.prisonerId, position);
    const started: KeepApartMeeting[] = [];
    for (const pair of pairs) {
      const other = this.positions.get(pair.a === position.prisonerId ? pair.b : pair.a);
      const fresh = other !== undefined && Math.abs(position.at.getTime() - other.at.getTime()) <= this.options.maxAgeMs;
      if (!fresh) {
        this.end(pair);
        continue;
      }
      const distance = haversineMeters(position.lat, position.lng, other.lat, other.lng);
      if (!pair.meeting && distance <= this.options.metres) {
        pair.meeting = true;
        started.push({ pairId: pair.id, mover: position, other, distanceMetres: distance, at: position.at });
      } else if (pair.meeting && distance > this.options.metres + this.options.hysteresisMetres) {
        this.end(pair);
      }
    }
    return started;
  }

  /** A tracker gone silent or given to someone else: its position no longer counts, its meetings end. */
  forget(prisonerId: number): void {
    this.positions.delete(prisonerId);
    for (const pair of this.byPrisoner.get(prisonerId) ?? []) this.end(pair);
  }

  /** The pairs whose meeting ended since the last call. */
  takeEnded(): number[] {
    const ended = this.ended;
    this.ended = [];
    return ended;
  }

  private end(pair: PairState): void {
    if (pair.meeting) this.ended.push(pair.id);
    pair.meeting = false;
  }

  save(prisonerId: number): SavedKeepApart {
    return {
      position: this.positions.get(prisonerId),
      meetings: (this.byPrisoner.get(prisonerId) ?? []).map((p) => [p.id, p.meeting]),
    };
  }

  restore(prisonerId: number, saved: SavedKeepApart): void {
    if (saved.position) this.positions.set(prisonerId, saved.position);
    else this.positions.delete(prisonerId);
    const meeting = new Map(saved.meetings);
    for (const pair of this.byPrisoner.get(prisonerId) ?? []) {
      const was = meeting.get(pair.id);
      if (was !== undefined) pair.meeting = was;
    }
  }
}
