import { z } from 'zod';

export const clientSettings = z.object({
  mapTileUrl: z.string(),
  mapCenter: z.object({ lat: z.number(), lng: z.number() }),
  mapZoom: z.number(),
  deviceOfflineSeconds: z.number(),
  /** DEVICE_SECRET_REQUIRED: every device must send its secret (decision 038); absent from older servers. */
  deviceSecretRequired: z.boolean().optional(),
});
export type ClientSettings = z.infer<typeof clientSettings>;
