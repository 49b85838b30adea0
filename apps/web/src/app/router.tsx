// The route table of SPEC.md section 2, with DECISIONS.md items 5 and 6.
// The first screen (/ and /login) is in the entry chunk; every page behind a login loads its own chunk on first
// visit, so the map, drawing and chart libraries reach only the screens that use them (docs/decisions/020).
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './layout';
import { AccountSetupFirst, RedirectIfAuthenticated, RequireAuth } from './guards';
import { HomePage } from '../features/home/home-page';
import { LoginPage } from '../features/auth/login-page';
import { Loading } from '../components/ui/status';

/** A page loaded on its first visit: `load` imports the module, `name` is the page's export. */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { element: <AccountSetupFirst />, children: [{ path: '/', element: <HomePage /> }] },
      { element: <RedirectIfAuthenticated />, children: [{ path: '/login', element: <LoginPage /> }] },
      {
        element: <RequireAuth />,
        children: [
          { path: '/dashboard', element: lazyPage(() => import('../features/dashboard/dashboard-page'), 'DashboardPage') },
          { path: '/live-map', element: lazyPage(() => import('../features/live-map/live-map-page'), 'LiveMapPage') },
          {
            path: '/location-history',
            element: lazyPage(() => import('../features/location-history/location-history-page'), 'LocationHistoryPage'),
          },
          { path: '/allAlerts', element: lazyPage(() => import('../features/alerts/alerts-page'), 'AlertsPage') },
          { path: '/alerts', element: lazyPage(() => import('../features/alerts/alerts-page'), 'AlertsPage') },
          {
            path: '/prisoner-details/:prisonerId',
            element: lazyPage(() => import('../features/prisoner-details/prisoner-details-page'), 'PrisonerDetailsPage'),
          },
          { path: '/cell-assign', element: lazyPage(() => import('../features/cells/cell-assign-page'), 'CellAssignPage') },
          { path: '/profile', element: lazyPage(() => import('../features/profile/profile-page'), 'ProfilePage') },
          {
            path: '/communication',
            element: lazyPage(() => import('../features/communication/communication-page'), 'CommunicationPage'),
          },
          { path: '/audit', element: lazyPage(() => import('../features/audit/audit-page'), 'AuditPage') },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
