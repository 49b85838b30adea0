// The alert feed's notifications (decision 039) on a real PostgreSQL: a batch of alerts of any size reaches the other
// process whole, in notifications PostgreSQL accepts, with one refresh at its end; an alert too long for a
// notification is read back from the database there. The whole path between server processes and browsers is
// test/cluster-alert-feed.test.ts.
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ShowAlertEvent } from '@prison/shared';
import { fromPostgres, type Database } from '../db/client';
import { readShowAlertEvent } from '../modules/alerts/alert-records';
import { insertAlerts, showAlertEvent } from '../modules/alerts/alert-store';
import { createScratchDatabase } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';
import { alertNotifications, createAlertFeed, MAX_SHOWN_BYTES, type StoredShowAlert } from './alert-feed';
import { ChangeFeed } from './change-feed';

const log = pino({ level: 'silent' });
const adminUrl = inject('postgresAdminUrl');
/** PostgreSQL's limit on a NOTIFY payload, in bytes (it refuses 8000 and more). */
const NOTIFY_LIMIT = 8_000;

const event = (id: number, message: string): StoredShowAlert => ({
  index: `tag-${id}`,
  alert_type: 'critical',
  message,
  alertId: id,
  timestamp: new Date(0).toISOString(),
});

describe('splitting a batch of alerts into notifications', () => {
  it('keeps every alert, in order, each notification under the limit, and asks for one refresh at the end', () => {
    // Three bytes a character: a long batch of long texts.
    const batch = Array.from({ length: 300 }, (_, i) => event(i + 1, `${i} ${'界'.repeat(400 + (i % 7) * 100)}`));
    const parts = alertNotifications(batch);
    expect(parts.length).toBeGreaterThan(30);
    for (const part of parts) expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(MAX_SHOWN_BYTES + 100);
    expect(parts.flatMap((part) => part.shown)).toEqual(batch);
    expect(parts.map((part) => part.refresh)).toEqual(parts.map((_, i) => i === parts.length - 1));
  });

  it('sends the id of an alert too long for a notification, to be read back, and still refreshes once', () => {
    const long = event(7, '"'.repeat(4_000)); // 8,000 bytes once escaped
    const parts = alertNotifications([event(6, 'short'), long, event(8, 'short')]);
    expect(parts).toEqual([{ shown: [event(6, 'short'), event(8, 'short')], read: [7], refresh: true }]);
    expect(alertNotifications([])).toEqual([{ shown: [], read: [], refresh: true }]);
  });
});

describe.skipIf(!adminUrl)('the alert feed between two processes on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let database: Database;
  let notifier: pg.Pool;
  beforeAll(async () => {
    scratch = await createScratchDatabase('prison_alert_feed');
    database = fromPostgres(scratch.url, 2);
    notifier = new pg.Pool({ connectionString: scratch.url, max: 2 });
  });
  afterAll(async () => {
    await notifier?.end();
    await database?.close();
    await scratch?.drop();
  });

  /** One process: its change feed and alert feed, and what its browsers were sent. */
  const serverProcess = (node: string) => {
    const changes = new ChangeFeed({
      node,
      connectionString: scratch!.url,
      notify: async (channel, payload) => {
        await notifier.query('select pg_notify($1, $2)', [channel, payload]);
      },
      log,
    });
    const sent: { event: string; value: unknown }[] = [];
    const browsers = { emit: (name: string, value: unknown) => sent.push({ event: name, value }) };
    const alerts = createAlertFeed(changes, { toLocalBrowsers: () => browsers as never, toLocalAudience: () => browsers as never }, (id) => readShowAlertEvent(database.db, id));
    return { changes, alerts, sent };
  };

  it("shows a batch of 300 long alerts and one too long for a notification on the other process's browsers, once each, then refreshes", async () => {
    const one = serverProcess('one');
    const two = serverProcess('two');
    await one.changes.start();
    await two.changes.start();
    try {
      const [stored] = await insertAlerts(database.db, [
        { alertType: 'Critical', kind: 'manual', details: '"'.repeat(4_000), at: new Date(), deviceId: null, prisonerId: null },
      ]);
      const long = showAlertEvent(stored!, { prisonerName: null, cellId: null, block: null });
      const batch = [...Array.from({ length: 300 }, (_, i) => event(100_000 + i, `${i} ${'界'.repeat(600)}`)), long];
      expect(Buffer.byteLength(JSON.stringify(batch))).toBeGreaterThan(50 * NOTIFY_LIMIT);
      await one.alerts.raised(batch);
      // Its own browsers at once, in order, then the refresh.
      expect(one.sent.map((s) => s.value)).toEqual([...batch, 'alerts']);
      await waitFor('the whole batch on the other process', () => two.sent.filter((s) => s.event === 'showAlert').length === batch.length, 3_000, 20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const shown = two.sent.filter((s) => s.event === 'showAlert').map((s) => s.value as ShowAlertEvent);
      expect(shown.sort((x, y) => x.alertId! - y.alertId!)).toEqual([long, ...batch.slice(0, -1)].sort((x, y) => x.alertId - y.alertId));
      expect(two.sent.filter((s) => s.event === 'dataChanged')).toEqual([{ event: 'dataChanged', value: 'alerts' }]);

      // A change (acknowledged, resolved): one refresh on each process.
      await one.alerts.changed();
      await waitFor('the refresh on the other process', () => two.sent.filter((s) => s.event === 'dataChanged').length === 2, 2_000, 20);
      expect(one.sent.filter((s) => s.event === 'dataChanged')).toHaveLength(2);
    } finally {
      await one.changes.stop();
      await two.changes.stop();
    }
  });
});
