// The route table of docs/CLIENT-CONTRACT.md, with docs/CLIENT-CONTRACT.md.
// The first screen of a logged-in operator (/, the operations overview) is in the entry chunk; every other page,
// /login included, loads its own chunk on its first visit, so the map, drawing, chart and form libraries reach only
// the screens that use them.
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Outlet, useRoutes, type RouteObject } from 'react-router';
import { Layout } from './layout';
import { AccountSetupFirst, RedirectIfAuthenticated, RequireAuth } from './guards';
import { HomePage } from '../features/home/home-page';
import { Loading } from '../components/ui/status';

/** A page whose module is imported on first render; `name` is the page's export in that module. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const LoginPage = lazyPage(() => import('../features/auth/login-page'), 'LoginPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/dashboard-page'), 'DashboardPage');
const LiveMapPage = lazyPage(() => import('../features/live-map/live-map-page'), 'LiveMapPage');
const LocationHistoryPage = lazyPage(
  () => import('../features/location-history/location-history-page'),
  'LocationHistoryPage',
);
const NearPage = lazyPage(() => import('../features/investigations/near-page'), 'NearPage');
const ReplayPage = lazyPage(() => import('../features/replay/replay-page'), 'ReplayPage');
const IncidentsPage = lazyPage(() => import('../features/incidents/incidents-page'), 'IncidentsPage');
const IncidentPage = lazyPage(() => import('../features/incidents/incident-page'), 'IncidentPage');
const AlertsPage = lazyPage(() => import('../features/alerts/alerts-page'), 'AlertsPage');
const PrisonerDetailsPage = lazyPage(
  () => import('../features/prisoner-details/prisoner-details-page'),
  'PrisonerDetailsPage',
);
const CellAssignPage = lazyPage(() => import('../features/cells/cell-assign-page'), 'CellAssignPage');
const ProfilePage = lazyPage(() => import('../features/profile/profile-page'), 'ProfilePage');
const CommunicationPage = lazyPage(() => import('../features/communication/communication-page'), 'CommunicationPage');
const MovementsPage = lazyPage(() => import('../features/movements/movements-page'), 'MovementsPage');
const AuditPage = lazyPage(() => import('../features/audit/audit-page'), 'AuditPage');
const CountsPage = lazyPage(() => import('../features/counts/counts-page'), 'CountsPage');
const ReadersPage = lazyPage(() => import('../features/readers/readers-page'), 'ReadersPage');
const ObservationChecksPage = lazyPage(
  () => import('../features/observations/observation-checks-page'),
  'ObservationChecksPage',
);
const SitePlanPage = lazyPage(() => import('../features/site-plan/site-plan-page'), 'SitePlanPage');

/** Shows the loading state while a page's chunk arrives on the first visit straight to its address. */
function PageChunk() {
  return (
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
}

const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { element: <AccountSetupFirst />, children: [{ path: '/', element: <HomePage /> }] },
      {
        element: <RedirectIfAuthenticated />,
        children: [{ element: <PageChunk />, children: [{ path: '/login', element: <LoginPage /> }] }],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <PageChunk />,
            children: [
              { path: '/dashboard', element: <DashboardPage /> },
              { path: '/live-map', element: <LiveMapPage /> },
              { path: '/location-history', element: <LocationHistoryPage /> },
              { path: '/investigations/near', element: <NearPage /> },
              { path: '/replay', element: <ReplayPage /> },
              { path: '/incidents', element: <IncidentsPage /> },
              { path: '/incidents/:incidentId', element: <IncidentPage /> },
              { path: '/allAlerts', element: <AlertsPage /> },
              { path: '/alerts', element: <AlertsPage /> },
              { path: '/prisoner-details/:prisonerId', element: <PrisonerDetailsPage /> },
              { path: '/cell-assign', element: <CellAssignPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/communication', element: <CommunicationPage /> },
              { path: '/movements', element: <MovementsPage /> },
              { path: '/audit', element: <AuditPage /> },
              { path: '/counts', element: <CountsPage /> },
              { path: '/readers', element: <ReadersPage /> },
              { path: '/observations', element: <ObservationChecksPage /> },
              { path: '/site-plan', element: <SitePlanPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The pages, matched in the BrowserRouter main.tsx renders (route objects alone: no loaders, so no data router). */
export function AppRoutes() {
  return useRoutes(routes);
}
