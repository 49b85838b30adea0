// The action each protected screen needs to open (decision 053): the menus hide what the role may not open, and the
// router shows "You do not have access to this page" for it instead of a screen of refusals.
import type { Action } from '@prison/shared/roles';

export const SCREEN_ACTIONS: Record<string, Action> = {
  '/dashboard': 'records.read',
  '/live-map': 'live.read',
  '/location-history': 'live.read',
  '/investigations': 'live.read',
  '/replay': 'live.read',
  '/incidents': 'records.read',
  '/allAlerts': 'live.read',
  '/alerts': 'live.read',
  '/prisoner-details': 'records.read',
  '/cell-assign': 'records.read',
  '/profile': 'self',
  '/communication': 'live.read',
  '/movements': 'live.read',
  '/audit': 'audit.read',
  '/counts': 'records.read',
  '/readers': 'live.read',
  '/observations': 'records.read',
  '/site-plan': 'settings.write',
};

/** The action a screen's path needs, by its first segment; public and unknown paths need none. */
export function screenAction(pathname: string): Action | null {
  const first = `/${pathname.split('/')[1] ?? ''}`;
  return SCREEN_ACTIONS[first] ?? null;
}
