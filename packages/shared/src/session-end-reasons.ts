// Why a session ended, and the sentence the browser shows on /login (decision 012).
export const SESSION_END_REASONS = ['idle', 'expired', 'logout', 'revoked', 'password_changed', 'two_factor_reset', 'two_factor_enabled', 'disabled'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Marks a request the web app sent by itself (a refetch after a live event, polling): not the user's activity. */
export const BACKGROUND_REQUEST_HEADER = 'x-background';

export function sessionEndedMessage(reason: SessionEndReason, idleMinutes: number): string {
  switch (reason) {
    case 'idle':
      return `Your session ended after ${idleMinutes} ${idleMinutes === 1 ? 'minute' : 'minutes'} without activity. Log in again.`;
    case 'expired':
      return 'Your session expired: a session lasts 1 day. Log in again.';
    case 'logout':
      return 'This session was logged out in another tab or window.';
    case 'revoked':
      return 'This session was ended from the sessions list on the profile page. Log in again.';
    case 'password_changed':
      return 'Your password was changed, so this session ended. Log in with the new password.';
    case 'two_factor_reset':
      return 'Your two-factor login was reset by an administrator, so this session ended. Log in again.';
    case 'two_factor_enabled':
      return 'Two-factor login was turned on for your account, so this session ended. Log in with your code.';
    case 'disabled':
      return 'Your account was disabled by another administrator.';
  }
}
