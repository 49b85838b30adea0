// The settings the web app reads from the server (GET /settings), and the offline threshold both sides use.
import { z } from 'zod';

/**
 * A tracker silent longer than this is offline (DEVICE_OFFLINE_SECONDS's default): the server marks it and raises the
 * alert, and the screens draw its last fix grey. Defined once for both.
 */
export const DEFAULT_DEVICE_OFFLINE_SECONDS = 120;

/** How much longer than that a silence lasts before its alert (OFFLINE_GRACE_SECONDS's default): a blip is no work. */
export const DEFAULT_OFFLINE_GRACE_SECONDS = 120;

export const clientSettings = z.object({
  /** The background tiles' URL template (another server's, or ours for a local file); null: MAP_TILES=off, the plan alone. */
  mapTileUrl: z.string().nullable(),
  mapCenter: z.object({ lat: z.number(), lng: z.number() }),
  mapZoom: z.number(),
  deviceOfflineSeconds: z.number(),
  /** DEVICE_SECRET_REQUIRED: every device must send its secret (decision 038); absent from older servers. */
  deviceSecretRequired: z.boolean().optional(),
});
export type ClientSettings = z.infer<typeof clientSettings>;
