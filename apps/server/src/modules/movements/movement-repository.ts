// Controlled movements in the database (decisions 064 and 099): the legs in force the fix rule watches, and today's
// movements as the API answers them, each prisoner's state read from the timestamps his leg recorded.
import { sql } from 'drizzle-orm';
import { worstMovementState, type Movement, type MovementState } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';

/** One prisoner of one movement in force (arrived or not), as the fix rule keeps it in memory. */
export interface OpenLeg {
  movementId: number;
  prisonerId: number;
  prisonerName: string;
  destinationId: string;
  destinationName: string;
  dueBy: number;
  startedAt: number;
  /** The zones on the way the movement names: neither off route nor alarming. */
  via: Set<string>;
  /** The geofences he was in at the start; null: decided by his first fix after it. */
  origin: Set<string> | null;
  arrived: boolean;
  overdue: boolean;
  offRoute: boolean;
}

/**
 * A movement is in force for a day at most: an old one never arrived stays overdue on its record, and one never ended
 * stops authorising its zones (an exemption ends by itself).
 */
export const MOVEMENT_IN_FORCE_MS = 24 * 3_600_000;
const OPEN_FOR = sql`interval '24 hours'`;

export async function loadOpenLegs(db: DbOrTx): Promise<OpenLeg[]> {
  const result = (await db.execute(sql`
    select mp.movement_id, mp.prisoner_id, trim(p.first_name || ' ' || p.last_name) as name, m.destination_geofence_id,
      m.destination_name, m.due_by, m.created_at, m.via_geofence_ids, mp.origin_geofence_ids, mp.arrived_at is not null as arrived,
      mp.overdue_at is not null as overdue, mp.off_route_at is not null as off_route
    from movement_prisoners mp
    join movements m on m.id = mp.movement_id
    join prisoners p on p.prisoner_id = mp.prisoner_id
    where m.ended_at is null and m.created_at > now() - ${OPEN_FOR}`)) as unknown as {
    rows: {
      movement_id: number;
      prisoner_id: number;
      name: string;
      destination_geofence_id: string;
      destination_name: string;
      due_by: string | Date;
      created_at: string | Date;
      via_geofence_ids: string[] | null;
      origin_geofence_ids: string[] | null;
      arrived: boolean;
      overdue: boolean;
      off_route: boolean;
    }[];
  };
  return result.rows.map((r) => ({
    movementId: Number(r.movement_id),
    prisonerId: Number(r.prisoner_id),
    prisonerName: r.name,
    destinationId: r.destination_geofence_id,
    destinationName: r.destination_name,
    dueBy: new Date(r.due_by).getTime(),
    startedAt: new Date(r.created_at).getTime(),
    via: new Set(r.via_geofence_ids ?? []),
    origin: r.origin_geofence_ids ? new Set(r.origin_geofence_ids) : null,
    arrived: r.arrived,
    overdue: r.overdue,
    offRoute: r.off_route,
  }));
}

const stateOf = (r: Record<string, unknown>): MovementState =>
  r.arrived_at ? 'arrived' : r.overdue_at ? 'overdue' : r.off_route_at ? 'off_route' : 'underway';
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Today's movements (started since midnight in the server's time zone), newest first, or only `ids`; each with the
 * caseload's prisoners (a movement with none of them is left out), `prisonerId`: only his.
 */
export async function selectMovements(db: DbOrTx, options: { ids?: number[]; prisonerId?: number; caseload?: Caseload }): Promise<Movement[]> {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const which = options.ids
    ? sql`m.id = any(${sql.param(options.ids)}::int[])`
    : sql`m.created_at >= (date_trunc('day', now() at time zone ${zone}) at time zone ${zone})`;
  const byPrisoner = options.prisonerId === undefined ? sql`true` : sql`m.id in (select movement_id from movement_prisoners where prisoner_id = ${options.prisonerId})`;
  const result = (await db.execute(sql`
    select m.id, m.destination_geofence_id, m.destination_name, m.due_by, m.created_at, m.created_by, m.closed_reason,
      m.ended_at, m.ended_by, m.cancelled, m.via_geofence_ids,
      array(select coalesce(g.name, v.id) from unnest(m.via_geofence_ids) with ordinality v(id, n)
        left join geofences g on g.geofence_id = v.id order by v.n) as via_names,
      s.staff_id, s.first_name as staff_first, s.last_name as staff_last,
      mp.prisoner_id, p.first_name, p.last_name, p.cell_id, mp.arrived_at, mp.overdue_at, mp.off_route_at, mp.off_route_geofence
    from movements m
    join movement_prisoners mp on mp.movement_id = m.id
    join prisoners p on p.prisoner_id = mp.prisoner_id
    left join staff s on s.staff_id = m.escort_staff_id
    where ${which} and ${byPrisoner} and ${prisonerInCaseloadOrTrue(sql`mp.prisoner_id`, options.caseload ?? [])}
    order by m.created_at desc, m.id desc, p.last_name, p.first_name, mp.prisoner_id`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  const byId = new Map<number, Movement>();
  for (const r of result.rows) {
    const id = Number(r.id);
    let movement = byId.get(id);
    if (!movement) {
      movement = {
        id,
        state: 'underway',
        destination: { geofence_id: r.destination_geofence_id as string, name: r.destination_name as string },
        due_by: iso(r.due_by as Date)!,
        escort: r.staff_id === null ? null : { staff_id: Number(r.staff_id), first_name: r.staff_first as string, last_name: r.staff_last as string },
        created_at: iso(r.created_at as Date)!,
        created_by: r.created_by as string,
        via: ((r.via_geofence_ids as string[] | null) ?? []).map((geofence_id, i) => ({ geofence_id, name: (r.via_names as string[])[i] ?? geofence_id })),
        closed_reason: (r.closed_reason as string | null) ?? null,
        in_force: r.ended_at === null && Date.now() - new Date(r.created_at as Date).getTime() < MOVEMENT_IN_FORCE_MS,
        ended_at: iso(r.ended_at as Date | null),
        ended_by: (r.ended_by as string | null) ?? null,
        cancelled: Boolean(r.cancelled),
        prisoners: [],
      };
      byId.set(id, movement);
    }
    movement.prisoners.push({
      prisoner_id: Number(r.prisoner_id),
      first_name: r.first_name as string,
      last_name: r.last_name as string,
      cell_id: (r.cell_id as string | null) ?? null,
      state: stateOf(r),
      arrived_at: iso(r.arrived_at as Date | null),
      off_route_geofence: (r.off_route_geofence as string | null) ?? null,
    });
  }
  for (const movement of byId.values()) movement.state = worstMovementState(movement.prisoners.map((p) => p.state));
  return [...byId.values()];
}
