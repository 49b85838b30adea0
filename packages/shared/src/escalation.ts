// Escalation of unacknowledged Critical alerts (decision 060): the delivery log and the test send.
import { z } from 'zod';
import { pageQuery } from './api';

export const ESCALATION_CHANNELS = ['email', 'webhook'] as const;
export type EscalationChannel = (typeof ESCALATION_CHANNELS)[number];

/** pending: due, not tried yet; retrying: failed, tried again later; sent; failed: gave up; cancelled: acknowledged first. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'sent', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const alertDelivery = z.object({
  id: z.number().int(),
  /** Null for a test message. */
  alert_id: z.number().int().nullable(),
  channel: z.enum(ESCALATION_CHANNELS),
  status: z.enum(DELIVERY_STATUSES),
  test: z.boolean(),
  attempts: z.number().int(),
  /** ISO instants (UTC). */
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** The alert's text and its prisoner, when it has one. */
  alert_details: z.string().nullable(),
  prisoner_name: z.string().nullable(),
});
export type AlertDelivery = z.infer<typeof alertDelivery>;

export const deliveryQuery = pageQuery.extend({ status: z.enum(DELIVERY_STATUSES).optional() });
export type DeliveryQuery = z.infer<typeof deliveryQuery>;

export const escalationSettings = z.object({
  escalateAfterSeconds: z.number(),
  /** The channels this server is configured to use (SMTP_URL with ALERT_EMAIL_TO; ALERT_WEBHOOK_URL). */
  channels: z.array(z.enum(ESCALATION_CHANNELS)),
});
export type EscalationSettings = z.infer<typeof escalationSettings>;

export const deliveryPage = z.object({
  data: z.array(alertDelivery),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  settings: escalationSettings,
});
export type DeliveryPage = z.infer<typeof deliveryPage>;

export const escalationTestRequest = z
  .object({ channel: z.enum(ESCALATION_CHANNELS).optional() })
  .strict();
export type EscalationTestRequest = z.infer<typeof escalationTestRequest>;

export const escalationTestResult = z.object({ deliveries: z.array(alertDelivery) });
export type EscalationTestResult = z.infer<typeof escalationTestResult>;

export const ESCALATION_NOT_CONFIGURED =
  'Escalation is not configured: set SMTP_URL and ALERT_EMAIL_TO, or ALERT_WEBHOOK_URL and ALERT_WEBHOOK_SECRET';
