// How a tracked prisoner's marker looks (decision 026): its colour follows the worst open (unacknowledged) alert,
// grey when the tracker is offline; a short label (initials and cell) is drawn from LABEL_MIN_ZOOM on.
import type { AlertType } from '@prison/shared/constants';

export type MarkerLevel = 'critical' | 'warning' | 'informational' | 'none' | 'offline';

export const MARKER_LEVELS: readonly MarkerLevel[] = ['critical', 'warning', 'informational', 'none', 'offline'];

/** Fill colours: Critical red, Warning amber, Informational blue, nothing open green, offline (or stale) grey. */
export const MARKER_COLOURS: Record<MarkerLevel, string> = {
  critical: '#dc2626',
  warning: '#d97706',
  informational: '#2563eb',
  none: '#16a34a',
  offline: '#94a3b8',
};

/** Words for the level, for lists and popups (colour is never the only sign). */
export const MARKER_LEVEL_TEXT: Record<MarkerLevel, string> = {
  critical: 'Critical alert open',
  warning: 'Warning open',
  informational: 'Informational open',
  none: 'No open alert',
  offline: 'Offline',
};

/** Labels are drawn from this zoom on (a 100 m yard is about 700 px wide); where two would overlap, one is left out. */
export const LABEL_MIN_ZOOM = 17;

/** The marker's level: offline wins (the position is old), then the worst open alert, else none. */
export function markerLevel(online: boolean, worstOpen: AlertType | null | undefined): MarkerLevel {
  if (!online) return 'offline';
  if (worstOpen === 'Critical') return 'critical';
  if (worstOpen === 'Warning') return 'warning';
  if (worstOpen === 'Informational') return 'informational';
  return 'none';
}

/** Offline when the last fix is older than the threshold; a fix without a time counts as fresh (just received). */
export function isFixFresh(at: string | null | undefined, offlineSeconds: number, now: number): boolean {
  if (!at) return true;
  const time = Date.parse(at);
  if (Number.isNaN(time)) return true;
  return now - time <= offlineSeconds * 1000;
}

/** "JW B-4": the initials of the first and last word of the name, and the cell when there is one. */
export function markerLabel(name: string, cellId: string | null | undefined): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  const initials = `${first}${last}`.toUpperCase();
  return [initials, cellId ?? ''].filter(Boolean).join(' ');
}
