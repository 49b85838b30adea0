// The sweep that escalates (decision 060): every second, in every process, due Critical alerts get their deliveries,
// due deliveries are claimed and sent, failures are retried with backoff. All of it is read from the database, so a
// restart loses no timer and two processes never send the same delivery.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AlertDelivery, EscalationChannel } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { RateLimitedLog } from '../../lib/rate-limited-log';
import { findAlertRecord } from '../alerts/alert-records';
import { createChannels, errorText, type Channels } from './channels';
import { claimDueDeliveries, finishDelivery, findDelivery, openDueDeliveries, openTestDelivery, type ClaimedDelivery, type DeliveryOutcome } from './delivery-repository';
import { alertEmail, TEST_EMAIL, webhookBody } from './escalation-message';
import { nextAttemptAt, type RetryPolicy } from './retry-policy';

export const SWEEP_INTERVAL_MS = 1_000;
/** Deliveries one sweep of one process takes at most; the rest wait for the next sweep. */
const CLAIM_LIMIT = 10;

export interface Escalation {
  channels: Channels;
  /** One sweep now (the timer calls it too); never two at once. */
  sweep(): Promise<void>;
  /** Sends a test message through each configured channel (or the one asked for) now; answers the log rows. */
  sendTest(channel?: EscalationChannel): Promise<AlertDelivery[]>;
  /** Starts the sweep timer (onReady). */
  start(): void;
  stop(): Promise<void>;
}

export function createEscalation(app: FastifyInstance): Escalation {
  const { config } = app;
  const channels = createChannels(config);
  const policy: RetryPolicy = { firstDelayMs: config.ESCALATION_RETRY_SECONDS * 1000, retryForMs: config.ESCALATION_RETRY_FOR_SECONDS * 1000 };
  const failures = new RateLimitedLog(app.log);
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  /** Sends one claimed delivery and answers what happened; a closed alert is not sent. */
  async function attempt(db: DbOrTx, claimed: ClaimedDelivery): Promise<DeliveryOutcome> {
    const alert = claimed.alertId === null ? null : await findAlertRecord(db, claimed.alertId).catch((error: unknown) => {
      if (error instanceof HttpError) return null;
      throw error;
    });
    if (claimed.alertId !== null && !alert) return { status: 'cancelled', reason: 'the alert no longer exists' };
    if (alert && alert.status !== 'New') return { status: 'cancelled', reason: `the alert was ${alert.status.toLowerCase()} first` };
    try {
      if (claimed.channel === 'email') await channels.sendEmail(alert ? alertEmail(alert, config.ESCALATE_AFTER_SECONDS, config.PUBLIC_URL) : TEST_EMAIL);
      else await channels.sendWebhook(webhookBody(alert, claimed.id, new Date(), config.PUBLIC_URL), claimed.id);
      return { status: 'sent' };
    } catch (error) {
      const text = errorText(error);
      failures.error(`escalation: ${claimed.channel} failed: ${text}`);
      // A test message is tried once: the administrator is watching for its answer.
      const next = alert ? nextAttemptAt(policy, claimed.attempts, claimed.createdAt, new Date()) : null;
      return next ? { status: 'retrying', nextAttemptAt: next, error: text } : { status: 'failed', error: text };
    }
  }

  async function sweepOnce(): Promise<void> {
    const db = app.db;
    await openDueDeliveries(db, channels.configured, config.ESCALATE_AFTER_SECONDS, config.ESCALATION_RETRY_FOR_SECONDS);
    const token = randomUUID();
    const claimed = await claimDueDeliveries(db, token, CLAIM_LIMIT);
    await Promise.all(
      claimed.map(async (delivery) => {
        const outcome = await attempt(db, delivery);
        await finishDelivery(db, delivery.id, token, outcome);
        app.serverMetrics.deliveryFinished(delivery.channel, outcome.status);
        if (outcome.status === 'sent') app.log.info({ delivery: delivery.id, alert: delivery.alertId, channel: delivery.channel }, 'escalation: sent');
      }),
    );
  }

  const sweep = () => {
    if (stopped || channels.configured.length === 0) return Promise.resolve();
    running ??= sweepOnce()
      .catch((error: unknown) => {
        app.databaseHealth.failed(error, 'escalation sweep');
      })
      .finally(() => {
        running = null;
      });
    return running ?? Promise.resolve();
  };

  return {
    channels,
    sweep,
    async sendTest(channel) {
      const chosen = channel ? [channel] : channels.configured;
      return Promise.all(
        chosen.map(async (name) => {
          const token = randomUUID();
          const id = await openTestDelivery(app.db, name, token);
          const outcome = await attempt(app.db, { id, alertId: null, channel: name, attempts: 1, createdAt: new Date() });
          await finishDelivery(app.db, id, token, outcome);
          app.serverMetrics.deliveryFinished(name, outcome.status);
          return findDelivery(app.db, id);
        }),
      );
    },
    start() {
      timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      failures.stop();
      channels.close();
    },
  };
}
