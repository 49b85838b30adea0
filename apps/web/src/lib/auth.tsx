// The session as the web app sees it: learned from GET /admin/verify-token (docs/CLIENT-CONTRACT.md).
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogoutResponse } from '@prison/shared/api';
import type { LoginResponse, VerifyTokenResponse } from '@prison/shared/auth';
import type { Role } from '@prison/shared/roles';
import { api, ApiError } from './api-client';
import { forgetSessionEnd, markLoggingOut } from './session-end';
import { watchUserActivity } from './user-activity';

export type AuthStatus = 'unknown' | 'authenticated' | 'unauthenticated';

interface AuthState {
  status: AuthStatus;
  name: string | null;
  adminId: number | null;
  /** Until done, the admin is sent to /profile: a too-weak password to change, or two-factor login to enrol. */
  passwordChangeRequired: boolean;
  totpEnrolmentRequired: boolean;
  /** What the account may do (null until known); the screens ask `useMay(action)`, never the role's name. */
  role: Role | null;
  /** The account's caseload, block names; empty means every block. */
  blocks: string[];
  /** Throws TotpRequiredError when the password was right and the account asks for its code. */
  login(username: string, password: string, totp?: string): Promise<void>;
  /** Re-reads the session's flags after the admin changed the password or enrolled. */
  refresh(): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);
const NO_BLOCKS: string[] = [];

/** The password was right; the account has two-factor login and the code is needed. */
export class TotpRequiredError extends Error {}
export const SESSION_QUERY_KEY = ['session'] as const;

async function fetchSession({ signal }: { signal: AbortSignal }): Promise<VerifyTokenResponse | null> {
  try {
    return await api.get<VerifyTokenResponse>('/admin/verify-token', undefined, signal);
  } catch (error) {
    // Token verification failure: the user is treated as not authenticated (docs/CLIENT-CONTRACT.md).
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession, staleTime: 60_000, retry: 1 });

  const login = useCallback(
    async (username: string, password: string, totp?: string) => {
      let result: LoginResponse;
      try {
        result = await api.post<LoginResponse>('/admin/login', { username, password, ...(totp ? { totp } : {}) });
      } catch (error) {
        if (error instanceof ApiError && (error.body as { totpRequired?: boolean } | undefined)?.totpRequired)
          throw new TotpRequiredError(error.message);
        throw error;
      }
      // Drop what an earlier user saw; the session is known from the answer, so the caller can navigate at once.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
      const session: VerifyTokenResponse = {
        isAuthenticated: true,
        name: result.name,
        username: result.username,
        adminId: result.adminId,
        passwordChangeRequired: result.passwordChangeRequired,
        totpEnrolmentRequired: result.totpEnrolmentRequired,
        role: result.role,
        blocks: result.blocks,
      };
      queryClient.setQueryData(SESSION_QUERY_KEY, session);
      forgetSessionEnd();
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    markLoggingOut();
    let endSessionUrl: string | undefined;
    try {
      endSessionUrl = (await api.post<LogoutResponse>('/admin/logout'))?.end_session_url;
    } catch (error) {
      console.error('logout failed', error); // logged only (docs/CLIENT-CONTRACT.md)
    }
    // After a single sign-on login the provider's session ends too, at its own logout page (decision 104); otherwise
    // logout goes to /login and reloads the page (docs/CLIENT-CONTRACT.md).
    window.location.assign(endSessionUrl && /^https?:\/\//.test(endSessionUrl) ? endSessionUrl : '/login');
  }, []);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }), [queryClient]);
  // Mouse and keyboard use keeps the session alive while no request goes out (SESSION_IDLE_MINUTES).
  const authenticated = !!session.data;
  useEffect(() => {
    if (!authenticated) return;
    return watchUserActivity(() => void api.post('/admin/activity').catch(() => undefined));
  }, [authenticated]);

  const value = useMemo<AuthState>(() => {
    const status: AuthStatus = session.isPending ? 'unknown' : session.data ? 'authenticated' : 'unauthenticated';
    return {
      status,
      name: session.data?.name ?? null,
      adminId: session.data?.adminId ?? null,
      passwordChangeRequired: session.data?.passwordChangeRequired ?? false,
      totpEnrolmentRequired: session.data?.totpEnrolmentRequired ?? false,
      role: session.data?.role ?? null,
      blocks: session.data?.blocks ?? NO_BLOCKS,
      login,
      logout,
      refresh,
    };
  }, [session.isPending, session.data, login, logout, refresh]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth outside AuthProvider');
  return context;
}
