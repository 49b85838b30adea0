// Colour by severity (decision 044): only Critical (red) and Warning (amber) look like alarms; Informational is blue.
// One table for every screen that colours an alert level or a prisoner's zone state.
import { zoneState, type ZoneState } from '@prison/shared/alert-severity';
import type { AlertType } from '@prison/shared/constants';

/** A small badge of the level (popups, lists). */
export const LEVEL_BADGE_CLASS: Record<AlertType, string> = {
  Critical: 'bg-red-100 text-red-900',
  Warning: 'bg-amber-100 text-amber-900',
  Informational: 'bg-blue-100 text-blue-900',
};

/** Text in the level's colour on a white background (contrast at least 4.5:1). */
export const LEVEL_TEXT_CLASS: Record<AlertType, string> = {
  Critical: 'text-red-700',
  Warning: 'text-amber-800',
  Informational: 'text-blue-800',
};

/** The zone state's words and colour from the worst open violation's level; null when there is none. */
export function zoneStateStyle(
  violationLevel: AlertType | null | undefined,
): { state: Exclude<ZoneState, 'none'>; text: string; className: string } | null {
  const state = zoneState(violationLevel);
  if (state === 'none' || !violationLevel) return null;
  return {
    state,
    text: state === 'violation' ? 'In violation' : 'In zone',
    className: `font-semibold ${LEVEL_TEXT_CLASS[violationLevel]}`,
  };
}
