import { z } from 'zod';
import { isoDate } from './api';

export const incident = z.object({
  id: z.number().int(),
  prisonerName: z.string(),
  guardName: z.string(),
  date: z.string(),
  time: z.string(),
  description: z.string(),
  actionTaken: z.string(),
});
export type Incident = z.infer<typeof incident>;

export const incidentInput = z.object({
  prisonerName: z.string().trim().min(1, 'prisonerName is required').max(200),
  guardName: z.string().trim().min(1, 'guardName is required').max(200),
  date: isoDate,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time must be HH:MM'),
  description: z.string().trim().min(1, 'description is required').max(5000),
  actionTaken: z.string().trim().min(1, 'actionTaken is required').max(5000),
});
export type IncidentInput = z.infer<typeof incidentInput>;

/** GET /incident/recent?limit= (newest first; 10 unless asked, at most 100). */
export const recentIncidentsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10) });

export const incidentsResponse = z.object({ data: z.array(incident) });
