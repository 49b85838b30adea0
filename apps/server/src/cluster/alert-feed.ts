// Alert events for the browsers of every process (decision 039). A new alert (`showAlert`) and a change of alerts
// (`dataChanged('alerts')`: acknowledged, resolved, ended; it refreshes the Critical bar and the lists) never travel
// through the Redis adapter: the process that made the change emits them to its own browsers, and the PostgreSQL
// change feed carries them to the others, which emit them to theirs. One path per event gives "once" by construction,
// with Redis up, down or coming back, and the feed keeps working while Redis is down. Without a cluster the feed
// carries nothing and this process's browsers are every browser. A `showAlert` of a prisoner goes only to the browsers
// whose caseload holds his block (decision 051); one about nobody (a staff tracker, an unassigned device) to every one.
// An `alertStatusChanged` likewise: each alert's id only to the browsers that may see that alert (decision 093).
import type { AlertStatus, ShowAlertEvent } from '@prison/shared';
import { audienceOf, type Audience } from '../lib/caseload-audience';
import type { Realtime } from '../plugins/realtime';
import type { ChangeFeed } from './change-feed';

/**
 * An alert as shown live, once stored: it has its id, and the block of its prisoner's cell, which decides whose
 * browsers see it and is not sent to them.
 */
export type StoredShowAlert = ShowAlertEvent & { alertId: number; block?: string | null };

/** Where an alert event may be shown: its prisoner's block, or everyone when it is about nobody. */
type FeedEvent = ShowAlertEvent & { block?: string | null };

/**
 * A workflow step's alerts, grouped by who may see them (their prisoner's block, or everyone for an alert about
 * nobody): each group's ids go to its audience only, as `alertStatusChanged` (decision 093).
 */
export interface AlertStep {
  status: AlertStatus;
  groups: { audience: Audience; ids: number[] }[];
}

export interface AlertFeed {
  /** After the commit: `showAlert` for each alert, then `dataChanged('alerts')`, on every browser of every process. */
  raised(events: readonly StoredShowAlert[]): Promise<void>;
  /**
   * After the commit of an alert change: `dataChanged('alerts')` on every browser of every process, and with a workflow
   * step, `alertStatusChanged` to the browsers that may see each alert (a toast of one of them goes, decision 040).
   */
  changed(step?: AlertStep): Promise<void>;
}

/**
 * One notification: alerts to show; the ids of alerts too long to fit a notification (each process reads them from
 * the database); whether lists refetch (once per batch, not per notification).
 */
export interface AlertNotification {
  shown: FeedEvent[];
  read: number[];
  refresh: boolean;
  /** A workflow step's alerts (at most 500 ids: well within one notification). */
  step?: AlertStep;
}

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; this leaves room for the envelope (node name, kind). */
export const MAX_SHOWN_BYTES = 7_000;

/** Splits a batch into notifications that each fit; the last one asks the browsers to refetch. */
export function alertNotifications(events: readonly StoredShowAlert[]): AlertNotification[] {
  const parts: AlertNotification[] = [];
  let current: AlertNotification = { shown: [], read: [], refresh: false };
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (size > MAX_SHOWN_BYTES) {
      current.read.push(event.alertId);
      bytes += 12;
    } else {
      if (bytes + size > MAX_SHOWN_BYTES) {
        parts.push(current);
        current = { shown: [], read: [], refresh: false };
        bytes = 0;
      }
      current.shown.push(event);
      bytes += size;
    }
  }
  current.refresh = true;
  parts.push(current);
  return parts;
}

export function createAlertFeed(
  changes: ChangeFeed,
  realtime: Pick<Realtime, 'toLocalBrowsers' | 'toLocalAudience'>,
  /** An alert's live event read from the database, with its prisoner's block (null: gone). */
  read: (id: number) => Promise<FeedEvent | null>,
): AlertFeed {
  const emit = (shown: readonly FeedEvent[], refresh: boolean, step?: AlertStep) => {
    const browsers = realtime.toLocalBrowsers();
    for (const { block, ...event } of shown) {
      realtime.toLocalAudience(audienceOf({ prisonerId: event.prisonerId, block })).emit('showAlert', event);
    }
    for (const { audience, ids } of step?.groups ?? []) {
      if (ids.length > 0) realtime.toLocalAudience(audience).emit('alertStatusChanged', { ids, status: step!.status });
    }
    if (refresh) browsers.emit('dataChanged', 'alerts');
  };
  // Another process's alerts (a process never receives its own notifications).
  changes.on('alerts', async (data) => {
    const { shown, read: ids, refresh, step } = data as AlertNotification;
    const loaded = (await Promise.all(ids.map(read))).filter((event): event is FeedEvent => event !== null);
    emit([...shown, ...loaded], refresh, step);
  });
  return {
    raised: async (events) => {
      if (events.length === 0) return;
      emit(events, true);
      for (const part of alertNotifications(events)) await changes.announce('alerts', part);
    },
    changed: async (step) => {
      emit([], true, step);
      await changes.announce('alerts', { shown: [], read: [], refresh: true, step } satisfies AlertNotification);
    },
  };
}
