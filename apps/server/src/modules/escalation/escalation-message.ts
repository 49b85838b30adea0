// What an escalated alert says: the email naming the prisoner, the webhook's JSON body and its HMAC-SHA256 signature.
import { createHmac } from 'node:crypto';
import type { AlertRecord } from '@prison/shared';

export const SIGNATURE_HEADER = 'x-signature-256';

/** GitHub's form: `sha256=` and the hex HMAC-SHA256 of the raw body under the shared secret. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export function prisonerName(alert: AlertRecord): string | null {
  if (alert.prisoner_id === null) return null;
  return `${alert.first_name ?? ''} ${alert.last_name ?? ''}`.trim() || `prisoner #${alert.prisoner_id}`;
}

/** Headers take one line: a text from a device or an operator must not add another. */
const oneLine = (text: string, max: number) => text.replace(/[\r\n\t]+/g, ' ').slice(0, max);

/**
 * The address of the alert on the Alerts screen at PUBLIC_URL (the screen marks it and scrolls to it), or null
 * without PUBLIC_URL: a link to this server as the sweep sees it (localhost behind a proxy) would lead nowhere.
 */
export function alertLink(publicUrl: string | undefined, alertId: number): string | null {
  return publicUrl ? `${publicUrl}/alerts?alert=${alertId}` : null;
}

export interface EmailMessage {
  subject: string;
  text: string;
}

export function alertEmail(alert: AlertRecord, escalateAfterSeconds: number, publicUrl?: string): EmailMessage {
  const name = prisonerName(alert);
  const link = alertLink(publicUrl, alert.id);
  const who = name ? `${name} (#${alert.prisoner_id}${alert.cell_id ? `, cell ${alert.cell_id}` : ''})` : 'no prisoner (alert not tied to a tracker)';
  return {
    subject: oneLine(`CRITICAL alert not acknowledged: ${name ?? 'no prisoner'} - ${alert.details}`, 200),
    text: [
      `A Critical alert has not been acknowledged within ${escalateAfterSeconds} seconds.`,
      '',
      `Prisoner: ${who}`,
      `Alert: ${alert.details}`,
      `Raised: ${alert.timestamp.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
      `Alert id: ${alert.id}${alert.device_id ? `, tracker ${alert.device_id}` : ''}`,
      '',
      ...(link ? ['Acknowledge it on the Alerts screen of Prison Control:', link] : ['Acknowledge it on the Alerts screen of Prison Control.']),
    ].join('\n'),
  };
}

export const TEST_EMAIL: EmailMessage = {
  subject: 'Test message from Prison Control',
  text: 'This is a test of the alert escalation channel. An unacknowledged Critical alert will be sent here.',
};

/** The webhook's JSON body: the alert with its link (null without PUBLIC_URL) and its prisoner (null for a test). */
export function webhookBody(alert: AlertRecord | null, deliveryId: number, now: Date, publicUrl?: string): string {
  return JSON.stringify({
    event: alert ? 'alert.escalated' : 'test',
    delivery_id: deliveryId,
    sent_at: now.toISOString(),
    alert: alert && {
      id: alert.id,
      alert_type: alert.alert_type,
      kind: alert.kind,
      details: alert.details,
      timestamp: alert.timestamp,
      status: alert.status,
      device_id: alert.device_id,
      geofence_id: alert.geofence_id,
      url: alertLink(publicUrl, alert.id),
    },
    prisoner:
      alert && alert.prisoner_id !== null
        ? { prisoner_id: alert.prisoner_id, name: prisonerName(alert), first_name: alert.first_name, last_name: alert.last_name, cell_id: alert.cell_id }
        : null,
  });
}
