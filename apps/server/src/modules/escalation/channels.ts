// The two ways out: email through nodemailer (SMTP_URL) and a signed JSON POST (ALERT_WEBHOOK_URL), each bounded in
// time and size. A send resolves when the other side took the message and throws an Error saying why it did not.
import os from 'node:os';
import nodemailer, { type Transporter } from 'nodemailer';
import type { EscalationChannel } from '@prison/shared';
import type { Config } from '../../config';
import { signBody, SIGNATURE_HEADER, type EmailMessage } from './escalation-message';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const SMTP_TIMEOUT_MS = 15_000;
/** How much of a refusing receiver's answer goes into the log. */
const ERROR_BODY_BYTES = 300;
export const MAX_ERROR_LENGTH = 500;

export interface Channels {
  configured: EscalationChannel[];
  sendEmail(message: EmailMessage): Promise<void>;
  /** POSTs `body` signed; `deliveryId` lets the receiver drop a repeat (a process that died mid-send). */
  sendWebhook(body: string, deliveryId: number): Promise<void>;
  close(): void;
}

type ChannelConfig = Pick<
  Config,
  'SMTP_URL' | 'ALERT_EMAIL_TO' | 'ALERT_EMAIL_FROM' | 'ALERT_WEBHOOK_URL' | 'ALERT_WEBHOOK_SECRET'
>;

export function createChannels(config: ChannelConfig): Channels {
  const emailOn = !!config.SMTP_URL && !!config.ALERT_EMAIL_TO?.length;
  const webhookOn = !!config.ALERT_WEBHOOK_URL && !!config.ALERT_WEBHOOK_SECRET;
  let transport: Transporter | null = null;
  const mailer = () =>
    (transport ??= nodemailer.createTransport(config.SMTP_URL!, {
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    } as never));
  return {
    configured: [...(emailOn ? (['email'] as const) : []), ...(webhookOn ? (['webhook'] as const) : [])],
    async sendEmail(message) {
      if (!emailOn) throw new Error('email is not configured');
      await mailer().sendMail({
        from: config.ALERT_EMAIL_FROM ?? `Prison Control <prison-control@${os.hostname()}>`,
        to: config.ALERT_EMAIL_TO,
        subject: message.subject,
        text: message.text,
      });
    },
    async sendWebhook(body, deliveryId) {
      if (!webhookOn) throw new Error('the webhook is not configured');
      const response = await fetch(config.ALERT_WEBHOOK_URL!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signBody(body, config.ALERT_WEBHOOK_SECRET!),
          'x-delivery-id': String(deliveryId),
        },
        body,
        // A redirect is a failure: the signed body goes only where it was configured to.
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      if (response.status >= 200 && response.status < 300) {
        await response.body?.cancel();
        return;
      }
      throw new Error(`HTTP ${response.status}${await answerStart(response)}`);
    },
    close() {
      transport?.close();
    },
  };
}

/** The first bytes of a refusal's body, on one line, so the log says what the receiver said without holding it all. */
async function answerStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  let text = '';
  try {
    const { value } = await reader.read();
    if (value) text = Buffer.from(value.subarray(0, ERROR_BODY_BYTES)).toString('utf8');
  } catch {
    // The answer's body is only a hint.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line ? `: ${line}` : '';
}

/** An error as one bounded line for the delivery log (nodemailer's messages hold no password). */
export function errorText(error: unknown): string {
  let message = error instanceof Error ? (error.name === 'TimeoutError' ? `timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s` : error.message) : String(error);
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, a bad certificate) is its cause.
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause && (cause.code || cause.message)) message += `: ${cause.code ?? cause.message}`;
  return message.replace(/\s+/g, ' ').slice(0, MAX_ERROR_LENGTH);
}
