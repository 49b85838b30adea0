// The alert workflow (issue 5): acknowledge, resolve, in bulk, and the 30-day chart.
import { z } from 'zod';
import { boundedText, int32, intText } from './text';

const note = boundedText(2000, { multiline: true }).optional();

export const alertStepRequest = z.object({ note });
export type AlertStepRequest = z.infer<typeof alertStepRequest>;

export const ALERT_WORKFLOW_ACTIONS = ['acknowledge', 'resolve'] as const;
export type AlertWorkflowAction = (typeof ALERT_WORKFLOW_ACTIONS)[number];

export const alertBulkRequest = z.object({
  ids: z
    .array(int32())
    .min(1, 'ids must hold at least one alert id')
    .max(500, 'ids may hold at most 500 alert ids'),
  action: z.enum(ALERT_WORKFLOW_ACTIONS, { message: 'action must be acknowledge or resolve' }),
  note,
});
export type AlertBulkRequest = z.infer<typeof alertBulkRequest>;

export const alertBulkResponse = z.object({
  /** Alerts moved to the new status. */
  updated: z.array(z.number().int()),
  /** Alerts already at (or past) that status, left as they were. */
  skipped: z.array(z.number().int()),
});
export type AlertBulkResponse = z.infer<typeof alertBulkResponse>;

export const alertDailyStatsQuery = z.object({ days: intText(1, 366).default(30) });

export const alertDailyCount = z.object({
  /** UTC day, YYYY-MM-DD. */
  date: z.string(),
  Informational: z.number().int(),
  Warning: z.number().int(),
  Critical: z.number().int(),
});
export type AlertDailyCount = z.infer<typeof alertDailyCount>;
export const alertDailyStats = z.object({ days: z.array(alertDailyCount) });
export type AlertDailyStats = z.infer<typeof alertDailyStats>;
