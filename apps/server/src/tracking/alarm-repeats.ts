// A device alarm (SOS, tamper) repeated by the same device within ALARM_REPEAT_WINDOW_MS of the last one of its kind
// updates the open alert (repeat_count, last_repeat_at) instead of raising another (decision 038): a panic button
// held down, or a flood of copies, is one alarm for the control room, still open until someone resolves it.
// Safe under concurrency: a process writes its batches one at a time, in cluster mode under the devices' row locks,
// and the alert store reads the open alerts `for update`, so a repeat never lands on an alert resolved a moment before.
import type { Tx } from '../db/client';
import type { AlertStore } from './ports';

export const ALARM_REPEAT_WINDOW_MS = 60_000;

export interface Alarm {
  deviceId: string;
  kind: 'sos' | 'tamper';
  at: Date;
}

/** Where a batch's alarms go: a new alert (`raises`, its first alarm) or the open alert `alertId`, plus repeats. */
export interface AlarmGroup<A extends Alarm> {
  raises: A | null;
  alertId: number | null;
  repeats: number;
  lastAt: Date;
}

const keyOf = (alarm: { deviceId: string; kind: string }) => `${alarm.kind}|${alarm.deviceId}`;

/**
 * Groups a batch's stored alarms, in time order: each joins the latest alert of its device and kind (stored and open,
 * or raised earlier in this batch) when it comes within the window of that alert's last occurrence, or raises a new one.
 */
export async function groupAlarms<A extends Alarm>(tx: Tx, store: Pick<AlertStore, 'openAlarmAlerts'>, alarms: A[]): Promise<AlarmGroup<A>[]> {
  if (alarms.length === 0) return [];
  const sorted = [...alarms].sort((a, b) => a.at.getTime() - b.at.getTime());
  const earliest = new Date(sorted[0]!.at.getTime() - ALARM_REPEAT_WINDOW_MS);
  const latest = new Map<string, AlarmGroup<A>>();
  for (const open of await store.openAlarmAlerts(tx, [...new Set(alarms.map((a) => a.deviceId))], earliest)) {
    latest.set(keyOf(open), { raises: null, alertId: open.id, repeats: 0, lastAt: open.last });
  }
  const groups: AlarmGroup<A>[] = [...latest.values()];
  for (const alarm of sorted) {
    const group = latest.get(keyOf(alarm));
    // An alarm older than the group's last (a late fix) is within the window too.
    if (group && alarm.at.getTime() - group.lastAt.getTime() <= ALARM_REPEAT_WINDOW_MS) {
      group.repeats += 1;
      if (alarm.at > group.lastAt) group.lastAt = alarm.at;
      continue;
    }
    const raised: AlarmGroup<A> = { raises: alarm, alertId: null, repeats: 0, lastAt: alarm.at };
    latest.set(keyOf(alarm), raised);
    groups.push(raised);
  }
  return groups.filter((g) => g.raises || g.repeats > 0);
}
