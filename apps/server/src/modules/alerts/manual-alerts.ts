// POST /alert/all: an alert posted by an operator or an outside system, stored once however often it is echoed or
// retried (decision 019).
import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { AlertInput, AlertRecord, AlertType } from '@prison/shared';
import { parseTimestamp } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, cells, devices, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import type { AlertWearer, StoredAlert } from '../../tracking/ports';
import { findAlertRecord, selectAlertRecords, toAlertRecord } from './alert-records';
import { insertAlerts, isoDay } from './alert-store';

/** "YYYY-MM-DD HH:MM:SS" (docs/CLIENT-CONTRACT.md) read as UTC; an ISO instant with an offset is honoured. */
function parseAlertTimestamp(value: string): Date {
  const at = parseTimestamp(value);
  if (!at) throw badRequest('timestamp: must be a real timestamp as YYYY-MM-DD HH:MM:SS');
  return at;
}

/** What makes two alerts the same one for POST /alert/all (decision 019): its device, type and text. */
interface AlertIdentity {
  deviceId: string | null;
  alertType: AlertType;
  details: string;
}

/** Arbitrary, fixed: the first key of this check's advisory locks, so they never meet another feature's locks. */
const ALERT_POST_LOCK_CLASS = 19_019;

/**
 * The newest alert with this identity stored within the last `windowSeconds` (by the database's clock, when it was
 * stored, not the time it is about: a late fix raises an alert about an hour ago), whatever its status. One indexed
 * query that also reads what the answer shows.
 */
async function findRecentSameAlert(
  db: DbOrTx,
  same: AlertIdentity,
  windowSeconds: number,
): Promise<AlertRecord | null> {
  const [row] = await selectAlertRecords(db)
    .where(
      and(
        same.deviceId === null ? isNull(alerts.deviceId) : eq(alerts.deviceId, same.deviceId),
        gte(alerts.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
        eq(alerts.alertType, same.alertType),
        eq(alerts.details, same.details),
      ),
    )
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(1);
  return row ? toAlertRecord(row) : null;
}

export interface PostAlertOptions {
  /** A post repeating an alert stored this recently answers that alert (ALERT_ECHO_WINDOW_SECONDS). */
  echoWindowSeconds: number;
  /** Runs just before a new alert is stored, never for a repeat; throws to refuse it (the per-account limit). */
  beforeStore?: () => void;
}

export type PostedAlert =
  | { created: true; alert: StoredAlert; record: AlertRecord; wearer: AlertWearer }
  | { created: false; record: AlertRecord };

/**
 * POST /alert/all: an alert from an operator or an outside system. The spec's client posts back every `showAlert` it
 * receives (device_id = index, details = message), and an outside system may retry: a post with the device, type
 * and text of an alert stored within the window answers that alert and changes nothing (decision 019). Posts with one
 * identity are serialised by an advisory lock, so parallel copies store exactly one alert.
 */
export async function createManualAlert(
  db: DbOrTx,
  who: AuditActor,
  input: AlertInput,
  options: PostAlertOptions,
  now = new Date(),
): Promise<PostedAlert> {
  const same: AlertIdentity = {
    deviceId: input.device_id || null,
    alertType: input.alert_type,
    details: input.details,
  };
  // Repeats are the common case (every browser of the spec's client echoes every live alert): answered by one read.
  const repeated = await findRecentSameAlert(db, same, options.echoWindowSeconds);
  if (repeated) return { created: false, record: repeated };

  const at = input.timestamp
    ? parseAlertTimestamp(input.timestamp)
    : input.date
      ? new Date(`${input.date}T00:00:00Z`)
      : now;
  const { deviceId } = same;
  return db.transaction(async (tx): Promise<PostedAlert> => {
    const identity = JSON.stringify([same.deviceId, same.alertType, same.details]);
    await tx.execute(sql`select pg_advisory_xact_lock(${ALERT_POST_LOCK_CLASS}, hashtext(${identity}))`);
    // A parallel copy may have stored it while this one waited for the lock.
    const stored = await findRecentSameAlert(tx, same, options.echoWindowSeconds);
    if (stored) return { created: false, record: stored };

    let prisonerId: number | null = null;
    let wearer: AlertWearer = { prisonerName: null, cellId: null, block: null };
    if (deviceId) {
      const [device] = await tx
        .select({
          id: devices.id,
          prisonerId: prisoners.prisonerId,
          firstName: prisoners.firstName,
          lastName: prisoners.lastName,
          prisonNumber: prisoners.prisonNumber,
          cellId: prisoners.cellId,
          block: cells.block,
        })
        .from(devices)
        .leftJoin(prisoners, eq(prisoners.trackingDeviceId, devices.id))
        .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
        .where(eq(devices.id, deviceId));
      if (!device) throw notFound(`device_id: device ${deviceId} not found`);
      prisonerId = device.prisonerId ?? null;
      if (device.prisonerId)
        wearer = {
          prisonerName: `${device.firstName} ${device.lastName}`.trim(),
          prisonNumber: device.prisonNumber,
          cellId: device.cellId,
          block: device.block,
        };
    }
    options.beforeStore?.();
    const [alert] = await insertAlerts(tx, [
      { alertType: input.alert_type, kind: 'manual', details: input.details, at, deviceId, prisonerId },
    ]);
    // The stored day is the one the caller gave (docs/CLIENT-CONTRACT.md sends both date and timestamp).
    if (input.date && input.date !== isoDay(at))
      await tx.update(alerts).set({ date: input.date }).where(eq(alerts.id, alert!.id));
    const record = await findAlertRecord(tx, alert!.id);
    await recordAudit(tx, who, { action: 'create', entity: 'alert', entityId: alert!.id, after: record });
    return { created: true, alert: alert!, record, wearer };
  });
}
