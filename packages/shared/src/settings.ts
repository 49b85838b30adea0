import { z } from 'zod';

export const clientSettings = z.object({
  mapTileUrl: z.string(),
  mapCenter: z.object({ lat: z.number(), lng: z.number() }),
  mapZoom: z.number(),
  deviceOfflineSeconds: z.number(),
});
export type ClientSettings = z.infer<typeof clientSettings>;
