// Incidents: a record, its input, and the recent list's query and answer.
import { z } from 'zod';
import { boundedText, intText, nameText, pastDate } from './text';

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
  prisonerName: nameText(200).min(1, 'prisonerName is required'),
  guardName: nameText(200).min(1, 'guardName is required'),
  date: pastDate,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time must be HH:MM'),
  description: boundedText(5000, { multiline: true }).min(1, 'description is required'),
  actionTaken: boundedText(5000, { multiline: true }).min(1, 'actionTaken is required'),
});
export type IncidentInput = z.infer<typeof incidentInput>;

/** GET /incident/recent?limit= (newest first; 10 unless asked, at most 100). */
export const recentIncidentsQuery = z.object({ limit: intText(1, 100).default(10) });

export const incidentsResponse = z.object({ data: z.array(incident) });
