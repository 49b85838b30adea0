// Tracking devices: records with a secret, assigned to at most one prisoner ("Beyond the spec").
import { z } from 'zod';

export const DEFAULT_DEVICE_NAME = 'Prisoner Tracker A8';

export const device = z.object({
  id: z.string(),
  name: z.string(),
  prisoner_id: z.number().int().nullable(),
  prisoner_name: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  last_battery: z.number().nullable(),
  online: z.boolean(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type Device = z.infer<typeof device>;

export const deviceInput = z.object({
  /** A UUID is generated when absent; or the id a phone app shows. */
  id: z.string().trim().min(1).max(100).regex(/^[\w.:-]+$/, 'id may hold letters, digits, . : - and _ only').optional(),
  name: z.string().trim().min(1, 'name is required').max(100).optional(),
  prisoner_id: z.number().int().positive().nullable().optional(),
});
export type DeviceInput = z.infer<typeof deviceInput>;

/** Registration answers the secret once; only its hash is stored. */
export const deviceCreated = device.extend({ secret: z.string() });
export type DeviceCreated = z.infer<typeof deviceCreated>;
