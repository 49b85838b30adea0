// Tracking devices: records with a secret, assigned to at most one prisoner ("Beyond the spec").
import { z } from 'zod';
import { int32, nameText } from './text';

export const DEFAULT_DEVICE_NAME = 'Prisoner Tracker A8';

/**
 * What a tracker is, chosen at registration and fixed (decision 092): a `phone` reports its own position (GPS, over
 * OsmAnd, Socket.IO or a gateway's batch); a `tag` has none and is placed only by the indoor readers that see it. A
 * reader's sighting of a phone is refused, so a reader cannot move a phone.
 */
export const DEVICE_KINDS = ['phone', 'tag'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const DEVICE_KIND_LABELS: Record<DeviceKind, string> = { phone: 'Phone (GPS)', tag: 'Tag (indoor readers)' };

export const device = z.object({
  id: z.string(),
  name: z.string(),
  /** Phone or tag (decision 092); absent from answers older than that decision. */
  kind: z.enum(DEVICE_KINDS).optional(),
  prisoner_id: z.number().int().nullable(),
  prisoner_name: z.string().nullable(),
  /** The wearer's cell (null: none or no wearer), shown beside the name because names are not unique. */
  prisoner_cell_id: z.string().nullable().optional(),
  /** The wearer's prison number (decision 101), so two wearers of one name are told apart on the map. */
  prisoner_number: z.string().nullable().optional(),
  /** The police officer or guard wearing it: a device has a prisoner or a staff member, never both. */
  staff_id: z.number().int().nullable().optional(),
  staff_name: z.string().nullable().optional(),
  last_seen_at: z.string().nullable(),
  /** When the newest position was taken (the device's clock, never ahead of the server); last_seen_at is when the
   * server last heard from it. Extra beyond the first version: absent from older answers. */
  last_fix_at: z.string().nullable().optional(),
  last_battery: z.number().nullable(),
  online: z.boolean(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /**
   * This device must send its secret on every protocol even while the server's DEVICE_SECRET_REQUIRED is off (it is
   * on by default, and then every device must; decision 038). Absent from answers older than that decision.
   */
  secret_required: z.boolean().optional(),
});
export type Device = z.infer<typeof device>;

/** A device is worn by a prisoner or by a staff member, never both (400 naming the field). */
function oneWearer(value: { prisoner_id?: number | null; staff_id?: number | null }, ctx: z.RefinementCtx): void {
  if (value.prisoner_id != null && value.staff_id != null) {
    ctx.addIssue({ code: 'custom', path: ['staff_id'], message: 'must not be given with prisoner_id: a device is worn by a prisoner or by a staff member' });
  }
}

export const deviceInput = z.object({
  /** A UUID is generated when absent; or the id a phone app shows. */
  id: z.string().trim().min(1).max(100).regex(/^[\w.:-]+$/, 'id may hold letters, digits, . : - and _ only').optional(),
  name: nameText(100).min(1, 'name is required').optional(),
  /** Required, no default: it decides what may move the tracker (decision 092). */
  kind: z.enum(DEVICE_KINDS, { message: 'kind is required: phone (reports its own position) or tag (placed by the indoor readers)' }),
  prisoner_id: int32().nullable().optional(),
  staff_id: int32().nullable().optional(),
  /** Default false: DEVICE_SECRET_REQUIRED (on by default) decides for every device (decision 038). */
  secret_required: z.boolean().optional(),
}).superRefine(oneWearer);
export type DeviceInput = z.infer<typeof deviceInput>;

/** Registration answers the secret once; only its hash is stored. */
export const deviceCreated = device.extend({ secret: z.string() });
export type DeviceCreated = z.infer<typeof deviceCreated>;

/**
 * PUT /devices/{id}/assign: `prisoner_id` or `staff_id`; neither (or null) unassigns. A prisoner or staff member has
 * at most one device; assigning moves it.
 */
export const deviceAssignInput = z
  .object({
    prisoner_id: int32().nullable().optional(),
    staff_id: int32().nullable().optional(),
  })
  .superRefine(oneWearer);
export type DeviceAssignInput = z.infer<typeof deviceAssignInput>;

/** PUT /devices/{id}/secret-required (decision 038). */
export const deviceSecretRequiredInput = z.object({ secret_required: z.boolean({ message: 'secret_required must be true or false' }) });
export type DeviceSecretRequiredInput = z.infer<typeof deviceSecretRequiredInput>;

export const deviceList = z.object({ data: z.array(device) });
export const deviceSecret = z.object({ id: z.string(), secret: z.string() });
export type DeviceSecret = z.infer<typeof deviceSecret>;

/** Most fixes one POST /ingest/positions may carry. */
export const MAX_BATCH_POSITIONS = 1000;

/** One fix of a gateway batch; each fix carries its own device credentials. */
export interface BatchPosition {
  device_id: string;
  secret: string;
  latitude: number;
  longitude: number;
  /** ISO instant, or seconds / milliseconds since the epoch; absent = received now. */
  timestamp?: string | number;
  accuracy?: number;
  /** metres per second */
  speed?: number;
  bearing?: number;
  altitude?: number;
  /** percent, 0 to 100 */
  battery?: number;
  alarm?: string;
}

export const FIX_OUTCOMES = ['stored', 'duplicate', 'refused'] as const;
export type FixOutcome = (typeof FIX_OUTCOMES)[number];

export const batchPositionsResponse = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  refused: z.number().int(),
  results: z.array(z.object({ index: z.number().int(), outcome: z.enum(FIX_OUTCOMES), message: z.string().optional() })),
});
export type BatchPositionsResponse = z.infer<typeof batchPositionsResponse>;
