// Renders a piece of the web app to HTML as a signed-in account of a given role (react-dom/server, no browser), with
// the providers the screens read: the session (seeded, as GET /admin/verify-token answers it), toasts and a router.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { VerifyTokenResponse } from '@prison/shared/auth';
import type { Role } from '@prison/shared/roles';
import { AuthProvider, SESSION_QUERY_KEY } from '../lib/auth';
import { ToastProvider } from '../lib/toast';

export function renderAs(
  role: Role,
  node: ReactNode,
  { path = '/', routePattern = '*' }: { path?: string; routePattern?: string } = {},
): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const session: VerifyTokenResponse = {
    isAuthenticated: true,
    name: `A ${role}`,
    username: role,
    adminId: 7,
    passwordChangeRequired: false,
    totpEnrolmentRequired: false,
    role,
    blocks: [],
  };
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ToastProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={routePattern} element={node} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </AuthProvider>
    </QueryClientProvider>,
  );
}

/** The text of rendered HTML, tags and entities dropped, for "does it offer X" checks. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
