// Severity ranks alarms (decision 044): Critical and Warning are alarms (red, amber); Informational only
// tells (blue). Every list that shows alert state sorts by it, and a prisoner whose only open geofence violation is
// Informational is "in zone", not "in violation".
import type { AlertType } from './constants';

/** Worst first: the order of every list that shows alert state. */
export const ALERT_SEVERITY_ORDER: readonly AlertType[] = ['Critical', 'Warning', 'Informational'];

/** 0 for Critical, 1 Warning, 2 Informational, 3 for no level. */
export function severityRank(level: AlertType | null | undefined): number {
  const rank = level ? ALERT_SEVERITY_ORDER.indexOf(level) : -1;
  return rank === -1 ? ALERT_SEVERITY_ORDER.length : rank;
}

/** A comparator: worst level first, no level last. */
export function compareSeverity(a: AlertType | null | undefined, b: AlertType | null | undefined): number {
  return severityRank(a) - severityRank(b);
}

/** The worse of two levels (null when neither is set). */
export function worseLevel(a: AlertType | null | undefined, b: AlertType | null | undefined): AlertType | null {
  return (compareSeverity(a, b) <= 0 ? a : b) ?? null;
}

/** Only Critical and Warning are alarms: drawn red or amber, counted as violations. */
export function isAlarmLevel(level: AlertType | null | undefined): level is 'Critical' | 'Warning' {
  return level === 'Critical' || level === 'Warning';
}

/** A prisoner's geofence state from the worst level of his open geofence violations. */
export type ZoneState = 'violation' | 'zone' | 'none';

export function zoneState(violationLevel: AlertType | null | undefined): ZoneState {
  if (!violationLevel) return 'none';
  return isAlarmLevel(violationLevel) ? 'violation' : 'zone';
}

/** The words for the state wherever it is shown (colour is never the only sign). */
export const ZONE_STATE_TEXT: Record<Exclude<ZoneState, 'none'>, string> = {
  violation: 'In violation',
  zone: 'In zone',
};
