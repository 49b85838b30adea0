// The route table of SPEC.md section 2, with DECISIONS.md items 5 and 6.
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './layout';
import { AccountSetupFirst, RedirectIfAuthenticated, RequireAuth } from './guards';
import { HomePage } from '../features/home/home-page';
import { LoginPage } from '../features/auth/login-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { LiveMapPage } from '../features/live-map/live-map-page';
import { LocationHistoryPage } from '../features/location-history/location-history-page';
import { AlertsPage } from '../features/alerts/alerts-page';
import { PrisonerDetailsPage } from '../features/prisoner-details/prisoner-details-page';
import { CellAssignPage } from '../features/cells/cell-assign-page';
import { ProfilePage } from '../features/profile/profile-page';
import { CommunicationPage } from '../features/communication/communication-page';
import { AuditPage } from '../features/audit/audit-page';

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { element: <AccountSetupFirst />, children: [{ path: '/', element: <HomePage /> }] },
      { element: <RedirectIfAuthenticated />, children: [{ path: '/login', element: <LoginPage /> }] },
      {
        element: <RequireAuth />,
        children: [
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/live-map', element: <LiveMapPage /> },
          { path: '/location-history', element: <LocationHistoryPage /> },
          { path: '/allAlerts', element: <AlertsPage /> },
          { path: '/alerts', element: <AlertsPage /> },
          { path: '/prisoner-details/:prisonerId', element: <PrisonerDetailsPage /> },
          { path: '/cell-assign', element: <CellAssignPage /> },
          { path: '/profile', element: <ProfilePage /> },
          { path: '/communication', element: <CommunicationPage /> },
          { path: '/audit', element: <AuditPage /> },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
