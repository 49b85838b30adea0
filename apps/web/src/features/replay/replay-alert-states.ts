// Each replayed person's alert state at the replay clock: an alert is open from its time until it was first
// acknowledged or resolved (still open when neither happened). Built once per answer as a step function per tracker
// (sorted change times, each with the worst level open from then on), so a frame costs a binary search per tracker.
import type { AlertType } from '@prison/shared/constants';
import type { ReplayAlert, ReplayTrack } from '@prison/shared/replay';

const RANK: Record<AlertType, number> = { Informational: 1, Warning: 2, Critical: 3 };
const BY_RANK: (AlertType | null)[] = [null, 'Informational', 'Warning', 'Critical'];

/** The worst open level from times[i] on (until times[i + 1]); before times[0] nothing is open. */
export interface AlertSteps {
  times: number[];
  levels: (AlertType | null)[];
}

export const NO_STEPS: AlertSteps = { times: [], levels: [] };

type OpenSpan = Pick<ReplayAlert, 't' | 'closed_t' | 'alert_type'>;

/** One person's alerts as a step function of the worst open level. */
export function alertSteps(alerts: readonly OpenSpan[]): AlertSteps {
  const spans = alerts.filter((alert) => alert.closed_t === null || alert.closed_t > alert.t);
  if (spans.length === 0) return NO_STEPS;
  // Counts of open alerts per rank, changed at each start (+1) and close (-1), swept in time order.
  const edges: [number, number, number][] = [];
  for (const span of spans) {
    edges.push([span.t, RANK[span.alert_type], 1]);
    if (span.closed_t !== null) edges.push([span.closed_t, RANK[span.alert_type], -1]);
  }
  edges.sort((a, b) => a[0] - b[0]);
  const open = [0, 0, 0, 0];
  const steps: AlertSteps = { times: [], levels: [] };
  for (let i = 0; i < edges.length; ) {
    const time = edges[i]![0];
    for (; i < edges.length && edges[i]![0] === time; i++) open[edges[i]![1]]! += edges[i]![2];
    const worst = BY_RANK[open[3]! > 0 ? 3 : open[2]! > 0 ? 2 : open[1]! > 0 ? 1 : 0]!;
    if (steps.levels.length > 0 && steps.levels[steps.levels.length - 1] === worst) continue;
    steps.times.push(time);
    steps.levels.push(worst);
  }
  return steps;
}

/** The worst level open at `t`, or null. */
export function worstOpenAt(steps: AlertSteps, t: number): AlertType | null {
  const { times, levels } = steps;
  if (times.length === 0 || times[0]! > t) return null;
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return levels[lo]!;
}

/** Per tracker, the step function of the alerts about its wearer: a prisoner's by prisoner, anyone else's by tracker. */
export function alertStepsByTrack(tracks: readonly ReplayTrack[], alerts: readonly ReplayAlert[]): Map<string, AlertSteps> {
  const byPrisoner = new Map<number, ReplayAlert[]>();
  const byDevice = new Map<string, ReplayAlert[]>();
  for (const alert of alerts) {
    const [map, key] = alert.prisoner_id !== null ? [byPrisoner, alert.prisoner_id] : [byDevice, alert.device_id];
    if (key === null) continue;
    const list = (map as Map<number | string, ReplayAlert[]>).get(key);
    if (list) list.push(alert);
    else (map as Map<number | string, ReplayAlert[]>).set(key, [alert]);
  }
  const steps = new Map<string, AlertSteps>();
  for (const track of tracks) {
    const own = track.prisoner_id !== null ? byPrisoner.get(track.prisoner_id) : byDevice.get(track.device_id);
    if (own) steps.set(track.device_id, alertSteps(own));
  }
  return steps;
}
