// The controlled movements' fix rule (decisions 064 and 099): the legs in force (one prisoner of one
// movement not ended) indexed by prisoner id, so a fix of a prisoner without a movement costs one Map lookup. A fix
// inside the destination arrives; entering a geofence that is neither origin, destination nor a zone the movement names
// on the way is off route (Warning, once); the due time passing first is overdue (Warning, once). While in force, the
// destination and the zones on the way do not alarm for its prisoners (`exempts`). Each change is claimed by a conditional update in the batch's
// transaction, so one process of a cluster raises it; after the commit every process re-reads the open legs.
import { sql } from 'drizzle-orm';
import { movementOffRouteText, movementOverdueText } from '@prison/shared';
import type { Db, Tx } from '../../db/client';
import type { FixRule, RuleAlert, RuleFix, RuleOutcome, RuleWearer } from '../../tracking/fix-rules';
import { loadOpenLegs, MOVEMENT_IN_FORCE_MS, type OpenLeg } from './movement-repository';

type LegChange =
  | { kind: 'origin'; leg: OpenLeg; geofenceIds: string[] }
  | { kind: 'arrived'; leg: OpenLeg; at: Date }
  | { kind: 'off_route'; leg: OpenLeg; at: Date; geofence: string; deviceId: string }
  | { kind: 'overdue'; leg: OpenLeg; at: Date };

export class MovementRule implements FixRule {
  readonly name = 'controlled movements';
  private byPrisoner = new Map<number, OpenLeg[]>();

  /** `changed`: after a commit that changed a leg, so every process re-reads and screens refetch. */
  constructor(
    private readonly db: Db,
    private readonly changed: () => void,
  ) {}

  private reloads: Promise<void> = Promise.resolve();

  /**
   * Re-reads the open legs (at start, after a movement is started, after any process changed one). Reloads run one
   * after another, so the last one reads the latest commit.
   */
  reload(): Promise<void> {
    const next = this.reloads.then(() => this.read());
    this.reloads = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<void> {
    const next = new Map<number, OpenLeg[]>();
    for (const leg of await loadOpenLegs(this.db)) {
      const list = next.get(leg.prisonerId);
      if (list) list.push(leg);
      else next.set(leg.prisonerId, [leg]);
    }
    this.byPrisoner = next;
  }

  /** Open legs (for the benchmark and tests). */
  get size(): number {
    let n = 0;
    for (const legs of this.byPrisoner.values()) n += legs.length;
    return n;
  }

  watches(wearer: RuleWearer): boolean {
    return wearer.prisonerId !== null && this.byPrisoner.has(wearer.prisonerId);
  }

  onFixes(fixes: readonly RuleFix[]): RuleOutcome | null {
    const changes: LegChange[] = [];
    // The batch's own view of each leg: a second fix of the same prisoner sees what the first one decided.
    const seen = new Map<OpenLeg, { origin: Set<string> | null; arrived: boolean; offRoute: boolean }>();
    for (const fix of fixes) {
      for (const leg of this.byPrisoner.get(fix.prisonerId!) ?? []) {
        let view = seen.get(leg);
        if (!view) seen.set(leg, (view = { origin: leg.origin, arrived: leg.arrived, offRoute: leg.offRoute }));
        if (view.arrived || fix.at.getTime() < leg.startedAt) continue;
        const inside = fix.inside();
        if (view.origin === null) {
          // No position was known at the start: where the first fix after it is counts as the origin.
          view.origin = new Set(inside.map((g) => g.geofence_id).filter((id) => id !== leg.destinationId));
          changes.push({ kind: 'origin', leg, geofenceIds: [...view.origin] });
        }
        if (inside.some((g) => g.geofence_id === leg.destinationId)) {
          view.arrived = true;
          changes.push({ kind: 'arrived', leg, at: fix.at });
          continue;
        }
        if (view.offRoute) continue;
        const entered = inside.find((g) => g.geofence_id !== leg.destinationId && !leg.via.has(g.geofence_id) && !view.origin!.has(g.geofence_id));
        if (entered) {
          view.offRoute = true;
          changes.push({ kind: 'off_route', leg, at: fix.at, geofence: entered.name, deviceId: fix.deviceId });
        }
      }
    }
    return changes.length ? this.outcome(changes) : null;
  }

  /** The movement authorises him there: its destination or a zone it names on the way, from its start for a day at most. */
  exempts(prisonerId: number, geofenceId: string, t: number): boolean {
    const legs = this.byPrisoner.get(prisonerId);
    if (!legs) return false;
    return legs.some((leg) => t >= leg.startedAt && t < leg.startedAt + MOVEMENT_IN_FORCE_MS && (leg.destinationId === geofenceId || leg.via.has(geofenceId)));
  }

  tick(now: Date): RuleOutcome | null {
    const changes: LegChange[] = [];
    for (const legs of this.byPrisoner.values()) {
      for (const leg of legs) if (!leg.arrived && !leg.overdue && leg.dueBy <= now.getTime()) changes.push({ kind: 'overdue', leg, at: now });
    }
    return changes.length ? this.outcome(changes) : null;
  }

  private outcome(changes: LegChange[]): RuleOutcome {
    return {
      write: (tx) => writeChanges(tx, changes),
      committed: () => {
        for (const change of changes) applyChange(change);
        if (changes.some((c) => c.kind !== 'origin')) this.changed();
      },
    };
  }
}

function applyChange(change: LegChange): void {
  const { leg } = change;
  if (change.kind === 'origin') leg.origin = new Set(change.geofenceIds);
  else if (change.kind === 'arrived') leg.arrived = true;
  else if (change.kind === 'off_route') leg.offRoute = true;
  else leg.overdue = true;
}

/** Each change set once, by a conditional update: only the rows this transaction changed raise their alert. */
async function writeChanges(tx: Tx, changes: LegChange[]): Promise<RuleAlert[]> {
  const alerts: RuleAlert[] = [];
  for (const change of changes) {
    const { leg } = change;
    const key = sql`movement_id = ${leg.movementId} and prisoner_id = ${leg.prisonerId}`;
    if (change.kind === 'origin') {
      await tx.execute(sql`update movement_prisoners set origin_geofence_ids = ${sql.param(change.geofenceIds)}::text[] where ${key} and origin_geofence_ids is null`);
    } else if (change.kind === 'arrived') {
      await tx.execute(sql`update movement_prisoners set arrived_at = ${change.at.toISOString()}::timestamptz where ${key} and arrived_at is null`);
    } else if (change.kind === 'off_route') {
      const done = await claim(tx, sql`update movement_prisoners set off_route_at = ${change.at.toISOString()}::timestamptz, off_route_geofence = ${change.geofence}
        where ${key} and off_route_at is null and arrived_at is null returning 1`);
      if (done) alerts.push({ alertType: 'Warning', kind: 'movement', details: movementOffRouteText(leg.prisonerName, change.geofence, leg.destinationName), at: change.at, deviceId: change.deviceId, prisonerId: leg.prisonerId });
    } else {
      const result = (await tx.execute(sql`
        update movement_prisoners mp set overdue_at = ${change.at.toISOString()}::timestamptz
        where ${key} and overdue_at is null and arrived_at is null
        returning (select p.tracking_device_id from prisoners p where p.prisoner_id = mp.prisoner_id) as device_id`)) as unknown as { rows: { device_id: string | null }[] };
      const row = result.rows[0];
      if (row) alerts.push({ alertType: 'Warning', kind: 'movement', details: movementOverdueText(leg.prisonerName, leg.destinationName), at: change.at, deviceId: row.device_id, prisonerId: leg.prisonerId });
    }
  }
  return alerts;
}

async function claim(tx: Tx, statement: ReturnType<typeof sql>): Promise<boolean> {
  const result = (await tx.execute(statement)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}
