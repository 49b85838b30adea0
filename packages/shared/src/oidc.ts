// Single sign-on with OpenID Connect (decision 052): the paths, whether it is on, and why a login
// through it was refused, in the words the login page shows.
import { z } from 'zod';

/** Under /api/v1: the browser is sent here to log in at the identity provider, and comes back to the callback. */
export const OIDC_START_PATH = '/auth/oidc/start';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
/** Public: whether single sign-on is configured (OIDC_ISSUER set), so the login page shows its button. */
export const OIDC_STATUS_PATH = '/auth/oidc';

export const oidcStatus = z.object({ enabled: z.boolean() });
export type OidcStatus = z.infer<typeof oidcStatus>;

/** The words of the login page's button. */
export const SSO_BUTTON_LABEL = 'Sign in with single sign-on';

/**
 * Why a single sign-on was refused: the callback sends the browser to `/login?sso=<code>`; only these codes are
 * shown, so nobody can put words of their own on the login page through its URL.
 */
export const SSO_REFUSALS = {
  failed: 'Single sign-on did not complete. Please try again.',
  cancelled: 'Single sign-on was cancelled at the identity provider.',
  no_role:
    'Single sign-on refused: the identity provider gives this account no role here. Ask an administrator to give you one.',
  unknown_blocks:
    'Single sign-on refused: none of the blocks the identity provider gives this account exists here. Ask an administrator.',
  no_blocks:
    'Single sign-on refused: the identity provider gives this wing officer account no block. Ask an administrator to give it its blocks there.',
  no_username: 'Single sign-on refused: the identity provider gives this account no usable user name.',
  disabled: 'Single sign-on refused: this account is disabled.',
  last_administrator:
    'Single sign-on refused: the identity provider no longer makes this account an administrator, and it is the last active one. Make another account an administrator first.',
} as const;
export type SsoRefusal = keyof typeof SSO_REFUSALS;

/** The message of a `?sso=` code, or null for anything else. */
export function ssoRefusalMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(SSO_REFUSALS, code) ? SSO_REFUSALS[code as SsoRefusal] : null;
}
