// The fix-rule port (decision 064): one generic way for a feature module to watch accepted fixes and the clock
// without the core knowing the feature (controlled movements, staff in danger; later indoor readers, checks).
// A rule sees the fixes of the wearers it watches, once per batch, and answers alert drafts plus its own state change;
// the core writes both in the batch's transaction and tells the rule after the commit, so a batch that is not stored
// leaves the rule as it was. `tick` is the same for time (a due time passing, a timer running out).
import type { StoredGeofence } from '@prison/shared';
import type { Tx } from '../db/client';
import type { NewAlert } from './ports';

/** The wearer of a fix's tracker: a prisoner, a staff member, or nobody (an unassigned tracker). */
export interface RuleWearer {
  prisonerId: number | null;
  staffId: number | null;
}

/** One accepted fix (newer than the device's previous one), as a rule sees it. */
export interface RuleFix extends RuleWearer {
  deviceId: string;
  /** The name operators see: the prisoner's or the staff member's. */
  name: string;
  block: string | null;
  lat: number;
  lng: number;
  /** The fix's time (never later than the server's clock). */
  at: Date;
  /** The device's alarm with this fix (`sos`, `tamper`, `fall`), or null. */
  alarm: string | null;
  /** The geofences the fix is strictly inside (buffers not counted), whatever their scope or schedule; computed on first call. */
  inside(): readonly StoredGeofence[];
}

/** An alert a rule raises; the core adds the wearer's name and cell for the live toast. */
export type RuleAlert = Omit<NewAlert, 'geofenceId'>;

/**
 * What a rule decided for one batch or tick. `write` runs inside the transaction that stores the fixes (and the
 * alerts): it records the rule's state and answers the alerts to raise, which may be fewer than the rule thought when
 * another process got there first (a conditional update claims each one). An outcome without `write` (memory only)
 * keeps the batch on its one-statement path. `committed` runs after the commit only.
 */
export interface RuleOutcome {
  write?(tx: Tx): Promise<RuleAlert[]>;
  committed?(): void;
}

export interface FixRule {
  /** Its name in logs. */
  readonly name: string;
  /**
   * Whether the rule wants this wearer's fixes. Asked for every fix, so it must cost O(1) (a Map or Set lookup);
   * a fix no rule watches costs nothing else.
   */
  watches(wearer: RuleWearer): boolean;
  /** The batch's accepted fixes of the wearers it watches, in order; null when nothing happens. */
  onFixes(fixes: readonly RuleFix[]): RuleOutcome | null;
  /** Time-based checks, run with the core's offline watcher (every few seconds; in a cluster on every process). */
  tick?(now: Date): RuleOutcome | null;
  /**
   * Whether the rule authorises this prisoner in this geofence at time t (a movement's destination, decision 099): the
   * geofence's violation waits instead of alarming. Asked only when a violation would start, so O(his records) is fine.
   */
  exempts?(prisonerId: number, geofenceId: string, t: number): boolean;
}

/** One predicate over every rule's authorisations, for the geofence engine. */
export function exemptionOf(rules: readonly FixRule[]): ((prisonerId: number, geofenceId: string, t: number) => boolean) | null {
  const authorising = rules.filter((rule) => rule.exempts);
  if (authorising.length === 0) return null;
  return (prisonerId, geofenceId, t) => authorising.some((rule) => rule.exempts!(prisonerId, geofenceId, t));
}

/** The rules' outcomes of a batch's fixes: each rule is asked once, with only the fixes it watches. */
export function runFixRules(rules: readonly FixRule[], watched: readonly (readonly RuleFix[])[]): RuleOutcome[] {
  const outcomes: RuleOutcome[] = [];
  for (const [i, rule] of rules.entries()) {
    const fixes = watched[i]!;
    if (fixes.length === 0) continue;
    const outcome = rule.onFixes(fixes);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

/** The rules' time-based outcomes at `now`. */
export function tickFixRules(rules: readonly FixRule[], now: Date): RuleOutcome[] {
  const outcomes: RuleOutcome[] = [];
  for (const rule of rules) {
    const outcome = rule.tick?.(now);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}
