// The alert workflow: acknowledge, resolve, in bulk, and the 30-day chart. Decision 040: a
// Critical or Warning alert is acknowledged before it is resolved and its resolution needs a note; a bulk step takes a
// Critical only when the caller lists it again in confirm_critical_ids (chosen one by one). A Critical alert is also
// acknowledged only with a note (decision 095).
import { z } from 'zod';
import type { AlertStatus } from './constants';
import { boundedText, int32, intText } from './text';
import { ALERT_WORKFLOW_ACTIONS } from './alert-workflow-rules';

export * from './alert-workflow-rules';

const note = boundedText(2000, { multiline: true }).optional();

export const alertStepRequest = z.object({ note });
export type AlertStepRequest = z.infer<typeof alertStepRequest>;

const alertIds = (field: string) =>
  z
    .array(int32())
    .min(1, `${field} must hold at least one alert id`)
    .max(500, `${field} may hold at most 500 alert ids`);

export const alertBulkRequest = z
  .object({
    ids: alertIds('ids'),
    action: z.enum(ALERT_WORKFLOW_ACTIONS, { message: 'action must be acknowledge or resolve' }),
    note,
    /** The Critical alerts among `ids` that the operator chose one by one; any other Critical refuses the request. */
    confirm_critical_ids: alertIds('confirm_critical_ids').optional(),
  })
  .refine((body) => (body.confirm_critical_ids ?? []).every((id) => body.ids.includes(id)), {
    message: 'must list only ids that are also in ids',
    path: ['confirm_critical_ids'],
  });
export type AlertBulkRequest = z.infer<typeof alertBulkRequest>;

export const alertBulkResponse = z.object({
  /** Alerts moved to the new status. */
  updated: z.array(z.number().int()),
  /** Alerts already at (or past) that status, left as they were. */
  skipped: z.array(z.number().int()),
});
export type AlertBulkResponse = z.infer<typeof alertBulkResponse>;

/** The socket event `alertStatusChanged`: alerts a workflow step moved, anywhere (a toast of one of them goes). */
export interface AlertStatusChange {
  ids: number[];
  status: AlertStatus;
}

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
