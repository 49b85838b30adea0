// People and records of audit entries named for a reader ("J. Smith (officer)", "prisoner A0012 John Brown"), looked
// up when the trail is read: the chained rows keep the ids they were written with, and one page asks one query per
// kind of record named on it.
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { admins, alerts, geofences, incidents, prisoners, sessions, staff } from '../../db/schema';

/** "John Smith" as "J. Smith"; a one-word name as it is. */
export function shortName(name: string): string {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return name.trim();
  return `${words[0]!.charAt(0).toUpperCase()}. ${words.slice(1).join(' ')}`;
}

const accountLabel = (account: { name: string; role: string }) => `${shortName(account.name)} (${account.role})`;

const numericIds = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null && /^\d{1,9}$/.test(id)).map(Number))];

interface NamedRow {
  adminId: number | null;
  actor: string;
  entity: string;
  entityId: string | null;
}

type Lookup = (db: DbOrTx, ids: (string | null)[]) => Promise<Map<string, string>>;

/** How each kind of record is named; a kind not here is named by its kind and id ("cell A-1"). */
const RECORD_NAMES: Record<string, Lookup> = {
  async prisoner(db, ids) {
    const rows = await db
      .select({ id: prisoners.prisonerId, number: prisoners.prisonNumber, first: prisoners.firstName, last: prisoners.lastName })
      .from(prisoners)
      .where(inArray(prisoners.prisonerId, numericIds(ids)));
    return new Map(rows.map((r) => [String(r.id), `prisoner ${r.number} ${r.first} ${r.last}`]));
  },
  async admin(db, ids) {
    const rows = await db.select({ id: admins.id, name: admins.name, role: admins.role }).from(admins).where(inArray(admins.id, numericIds(ids)));
    return new Map(rows.map((r) => [String(r.id), `account ${accountLabel(r)}`]));
  },
  async staff(db, ids) {
    const rows = await db
      .select({ id: staff.staffId, first: staff.firstName, last: staff.lastName, role: staff.role })
      .from(staff)
      .where(inArray(staff.staffId, numericIds(ids)));
    return new Map(rows.map((r) => [String(r.id), `staff ${r.first} ${r.last} (${r.role})`]));
  },
  async alert(db, ids) {
    const rows = await db
      .select({ id: alerts.id, level: alerts.alertType, first: prisoners.firstName, last: prisoners.lastName, number: prisoners.prisonNumber })
      .from(alerts)
      .leftJoin(prisoners, eq(prisoners.prisonerId, alerts.prisonerId))
      .where(inArray(alerts.id, numericIds(ids)));
    return new Map(
      rows.map((r) => [String(r.id), `${r.level} alert #${r.id}${r.number ? ` about ${r.number} ${r.first} ${r.last}` : ''}`]),
    );
  },
  async incident(db, ids) {
    const rows = await db.select({ id: incidents.id, prisoner: incidents.prisonerName }).from(incidents).where(inArray(incidents.id, numericIds(ids)));
    return new Map(rows.map((r) => [String(r.id), `incident #${r.id} (${r.prisoner})`]));
  },
  async geofence(db, ids) {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await db.select({ id: geofences.geofenceId, name: geofences.name }).from(geofences).where(inArray(geofences.geofenceId, wanted));
    return new Map(rows.map((r) => [r.id, `geofence ${r.name}`]));
  },
  async session(db, ids) {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null && /^[0-9a-f-]{36}$/i.test(id)))];
    if (wanted.length === 0) return new Map();
    const rows = await db
      .select({ id: sessions.id, name: admins.name, role: admins.role })
      .from(sessions)
      .innerJoin(admins, eq(admins.id, sessions.adminId))
      .where(inArray(sessions.id, wanted));
    return new Map(rows.map((r) => [r.id, `session of ${accountLabel(r)}`]));
  },
};

const fallbackRecordName = (entity: string, entityId: string | null) =>
  entityId === null ? null : `${entity.replace(/_/g, ' ')} ${entityId}`;

export interface Names {
  actor(row: NamedRow): string;
  record(row: NamedRow): string | null;
}

/** The names of the people and records of these rows (a page of the trail). */
export async function namesFor(db: DbOrTx, rows: NamedRow[]): Promise<Names> {
  const actorIds = [...new Set(rows.map((r) => r.adminId).filter((id): id is number => id !== null))];
  const accounts = actorIds.length
    ? await db.select({ id: admins.id, name: admins.name, role: admins.role }).from(admins).where(inArray(admins.id, actorIds))
    : [];
  const actorNames = new Map(accounts.map((a) => [a.id, accountLabel(a)]));
  const recordNames = new Map<string, Map<string, string>>();
  for (const entity of new Set(rows.map((r) => r.entity))) {
    const lookup = RECORD_NAMES[entity];
    if (!lookup) continue;
    const ids = rows.filter((r) => r.entity === entity).map((r) => r.entityId);
    if (ids.some((id) => id !== null)) recordNames.set(entity, await lookup(db, ids));
  }
  return {
    // An account since deleted keeps the username it had when the entry was written.
    actor: (row) => (row.adminId !== null ? actorNames.get(row.adminId) : undefined) ?? row.actor,
    record: (row) =>
      (row.entityId !== null ? recordNames.get(row.entity)?.get(row.entityId) : undefined) ?? fallbackRecordName(row.entity, row.entityId),
  };
}
