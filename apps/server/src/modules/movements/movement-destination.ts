// Where a movement may send prisoners (decision 099): a destination is a place prisoners go, so not a Negative zone
// (the perimeter, a curfew: where they must stay) nor an Informational one; a destination whose alarm is in force at
// `due_by` (a Positive zone always in force, or within its schedule's window: closed then) needs a reason. Zones on the
// way may be any zone but one that keeps everyone in (the perimeter): a movement never silences the site's wall.
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { geofences } from '../../db/schema';
import { badRequest, conflict } from '../../lib/http-errors';
import { activeInWeek, compileSchedule, WeekClock } from '../../tracking/geofence-schedule';

type GeofenceRow = typeof geofences.$inferSelect;

export interface CheckedPlaces {
  destination: { id: string; name: string };
  via: { id: string; name: string }[];
  /** The destination's alarm is in force at due_by. */
  closed: boolean;
}

/** Whether a zone's alarm applies at `at` in the prison's time zone: always without a schedule, else within a window. */
export function inForceAt(zone: Pick<GeofenceRow, 'schedule'>, at: Date, timeZone: string): boolean {
  if (!zone.schedule?.length) return true;
  return activeInWeek(compileSchedule(zone.schedule), new WeekClock(timeZone).minuteOfWeek(at.getTime()));
}

const localTime = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

export async function checkPlaces(
  db: DbOrTx,
  input: { destination_geofence_id: string; via_geofence_ids?: string[]; due_by: string; reason?: string },
  timeZone: string,
): Promise<CheckedPlaces> {
  const viaIds = input.via_geofence_ids ?? [];
  const rows = await db.select().from(geofences).where(inArray(geofences.geofenceId, [input.destination_geofence_id, ...viaIds]));
  const byId = new Map(rows.map((row) => [row.geofenceId, row]));
  const destination = byId.get(input.destination_geofence_id);
  if (!destination) throw badRequest(`destination_geofence_id: geofence ${input.destination_geofence_id} does not exist`);
  if (destination.type === 'Negative')
    throw badRequest(`destination_geofence_id: ${destination.name} is a Negative zone (a perimeter or a curfew: where prisoners must stay), not a place to send them`);
  if (destination.alertType === 'Informational')
    throw badRequest(`destination_geofence_id: ${destination.name} is an Informational zone, not a place prisoners are sent`);
  const via = viaIds.map((id) => {
    const zone = byId.get(id);
    if (!zone) throw badRequest(`via_geofence_ids: geofence ${id} does not exist`);
    if (id === destination.geofenceId) throw badRequest(`via_geofence_ids: ${zone.name} is the destination`);
    if (zone.type === 'Negative' && !zone.appliesTo)
      throw badRequest(`via_geofence_ids: ${zone.name} keeps everyone in (a perimeter); a movement cannot silence it (an escort does)`);
    return { id, name: zone.name };
  });
  const dueBy = new Date(input.due_by);
  const closed = inForceAt(destination, dueBy, timeZone);
  if (closed && input.reason === undefined)
    throw conflict(`reason: ${destination.name} is closed at ${localTime(dueBy, timeZone)} (due_by); give a reason to send prisoners there`);
  return { destination: { id: destination.geofenceId, name: destination.name }, via, closed };
}
