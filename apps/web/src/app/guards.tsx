// Route guards (docs/CLIENT-CONTRACT.md).
import { Navigate, Outlet, useLocation } from 'react-router';
import { useRef } from 'react';
import { useAuth, type AuthStatus } from '../lib/auth';
import { may } from '../lib/use-may';
import { Loading } from '../components/ui/status';
import { NoAccess } from '../components/ui/no-access';
import { screenAction } from './route-access';

/**
 * A protected page redirects to /login when the user is not authenticated, and to /profile while the admin must
 * first change a password or enrol two-factor login (REQUIRE_TOTP); the server refuses the rest meanwhile. A screen
 * the account's role may not open says so (decision 053).
 */
export function RequireAuth() {
  const { status, passwordChangeRequired, totpEnrolmentRequired, role } = useAuth();
  const location = useLocation();
  if (status === 'unknown') return <Loading />;
  if (status === 'unauthenticated') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if ((passwordChangeRequired || totpEnrolmentRequired) && location.pathname !== '/profile')
    return <Navigate to="/profile" replace />;
  const action = screenAction(location.pathname);
  if (action && !may(role, action)) return <NoAccess />;
  return <Outlet />;
}

/** The public home page too sends an admin with a required step (see RequireAuth) to /profile first. */
export function AccountSetupFirst() {
  const { status, passwordChangeRequired, totpEnrolmentRequired } = useAuth();
  if (status === 'authenticated' && (passwordChangeRequired || totpEnrolmentRequired)) return <Navigate to="/profile" replace />;
  return <Outlet />;
}

/**
 * /login redirects to / when the visitor arrives already authenticated. A login made on this page is not such an
 * arrival: the login form itself then navigates on, to the operations overview (decision 044).
 */
export function RedirectIfAuthenticated() {
  const { status } = useAuth();
  const arrivedAs = useRef<AuthStatus>('unknown');
  if (arrivedAs.current === 'unknown') arrivedAs.current = status;
  if (status === 'unknown') return <Loading />;
  if (arrivedAs.current === 'authenticated') return <Navigate to="/" replace />;
  return <Outlet />;
}
