// Staff in danger, man-down (decision 064): a fix rule on staff trackers. A tracker inside the site
// that has not moved more than 2 m for MAN_DOWN_SECONDS, or that reports a fall (OsmAnd `alarm=fall`), raises
// "Officer NAME may be down" (Critical): once per still period; moving more than 2 m re-arms it. "Inside the site" is
// inside a Negative geofence that applies to everyone (the perimeter: where everyone must stay).
import { sql } from 'drizzle-orm';
import { haversineMeters } from '@prison/shared';
import type { Tx } from '../../db/client';
import type { FixRule, RuleAlert, RuleFix, RuleOutcome, RuleWearer } from '../../tracking/fix-rules';
import { officerMayBeDown } from '../../tracking/staff-sos';

/** Moving further than this from where the tracker came to rest ends the still period. */
export const MAN_DOWN_METRES = 2;
/** A fall within this long of an open man-down alert of the same tracker is the same event. */
const FALL_REPEAT_MS = 60_000;

interface Still {
  deviceId: string;
  name: string;
  lat: number;
  lng: number;
  /** When the tracker came to rest here (ms, fix time). */
  since: number;
  /** Its newest fix here (ms). */
  lastAt: number;
  insideSite: boolean;
  alerted: boolean;
}

type Raise = { deviceId: string; name: string; at: Date; since: number; fall: boolean };

const insideSite = (fix: RuleFix) => fix.inside().some((g) => g.type === 'Negative' && !g.applies_to);

export class ManDownRule implements FixRule {
  readonly name = 'staff man-down';
  private readonly still = new Map<string, Still>();
  private readonly stillMs: number;

  /** `newestFixAt`: the newest fix any process stored for the device (the registry), so stale state raises nothing. */
  constructor(
    seconds: number,
    private readonly newestFixAt: (deviceId: string) => number | null,
  ) {
    this.stillMs = seconds * 1000;
  }

  watches(wearer: RuleWearer): boolean {
    return wearer.staffId !== null;
  }

  onFixes(fixes: readonly RuleFix[]): RuleOutcome | null {
    const next = new Map<string, Still>();
    const raises: Raise[] = [];
    for (const fix of fixes) {
      const before = next.get(fix.deviceId) ?? this.still.get(fix.deviceId);
      const at = fix.at.getTime();
      const moved = !before || haversineMeters(before.lat, before.lng, fix.lat, fix.lng) > MAN_DOWN_METRES;
      const state: Still = moved
        ? { deviceId: fix.deviceId, name: fix.name, lat: fix.lat, lng: fix.lng, since: at, lastAt: at, insideSite: insideSite(fix), alerted: false }
        : { ...before, name: fix.name, lastAt: at, insideSite: insideSite(fix) };
      if (fix.alarm === 'fall') raises.push({ deviceId: fix.deviceId, name: fix.name, at: fix.at, since: at - FALL_REPEAT_MS, fall: true });
      if (!state.alerted && state.insideSite && at - state.since >= this.stillMs) {
        state.alerted = true;
        raises.push({ deviceId: fix.deviceId, name: fix.name, at: fix.at, since: state.since, fall: false });
      }
      next.set(fix.deviceId, state);
    }
    const committed = () => {
      for (const [id, state] of next) this.still.set(id, state);
    };
    // Nothing to raise: memory only, so the batch stays on its one-statement path.
    return raises.length ? { write: (tx) => claimRaises(tx, raises), committed } : { committed };
  }

  tick(now: Date): RuleOutcome | null {
    const raises: Raise[] = [];
    const alerted: Still[] = [];
    for (const state of this.still.values()) {
      if (state.alerted || !state.insideSite || now.getTime() - state.since < this.stillMs) continue;
      // Another process took a newer fix of this tracker: its state is the one that counts (cluster mode).
      const newest = this.newestFixAt(state.deviceId);
      if (newest !== null && newest > state.lastAt) continue;
      alerted.push(state);
      raises.push({ deviceId: state.deviceId, name: state.name, at: now, since: state.since, fall: false });
    }
    if (raises.length === 0) return null;
    return {
      write: (tx) => claimRaises(tx, raises),
      committed: () => alerted.forEach((state) => (state.alerted = true)),
    };
  }
}

/**
 * Under the tracker's row lock, a man-down alert is raised only if none was since the still period began (a fall: within
 * a minute), so two processes holding the same tracker's state raise it once.
 */
async function claimRaises(tx: Tx, raises: Raise[]): Promise<RuleAlert[]> {
  const alerts: RuleAlert[] = [];
  for (const raise of raises) {
    await tx.execute(sql`select 1 from devices where id = ${raise.deviceId} for update`);
    const result = (await tx.execute(sql`select 1 from alerts where device_id = ${raise.deviceId} and kind = 'staff_down'
      and timestamp >= ${new Date(raise.since).toISOString()}::timestamptz limit 1`)) as unknown as { rows: unknown[] };
    if (result.rows.length > 0) continue;
    alerts.push({ alertType: 'Critical', kind: 'staff_down', details: officerMayBeDown(raise.name), at: raise.at, deviceId: raise.deviceId, prisonerId: null });
  }
  return alerts;
}
