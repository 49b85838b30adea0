// The geofences as they were (decision 069): every geofence write is audited with the whole geofence
// before and after, so the geofences at an instant are today's with every later write undone, newest first.
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Geofence } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { listGeofences } from './geofence-service';

interface GeofenceWrite {
  at: Date;
  action: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

export interface GeofenceChangeAt {
  at: Date;
  geofenceId: string;
  /** null: deleted. */
  geofence: Geofence | null;
}

const asGeofence = (value: unknown): Geofence | null =>
  value && typeof value === 'object' && 'geofence_id' in value ? (value as Geofence) : null;

/** The geofences at `from`, and each change in (from, to] in order, for a replay of that window. */
export async function geofencesAsTheyWere(
  db: DbOrTx,
  from: Date,
  to: Date,
): Promise<{ geofences: Geofence[]; changes: GeofenceChangeAt[] }> {
  const [current, later] = await Promise.all([
    listGeofences(db),
    db
      .select({ at: auditLog.at, action: auditLog.action, entityId: auditLog.entityId, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'geofence'), gt(auditLog.at, from)))
      .orderBy(asc(auditLog.at), asc(auditLog.id)),
  ]);
  const byId = new Map(current.map((geofence) => [geofence.geofence_id, geofence]));
  // Undo the writes after `from`, newest first: what remains is the set as it stood at `from`.
  for (const write of [...later].reverse()) undo(byId, write);
  const changes = later
    .filter((write) => write.at <= to && write.entityId !== null)
    .map((write) => ({
      at: write.at,
      geofenceId: write.entityId!,
      geofence: write.action === 'delete' ? null : asGeofence(write.after),
    }));
  return { geofences: [...byId.values()], changes };
}

function undo(byId: Map<string, Geofence>, write: GeofenceWrite): void {
  if (write.entityId === null) return;
  if (write.action === 'create') byId.delete(write.entityId);
  else {
    // An update or a delete: the geofence was its `before` until then.
    const before = asGeofence(write.before);
    if (before) byId.set(write.entityId, before);
  }
}

