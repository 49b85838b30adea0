// The app's providers around the router: the query client (no retry of a 4xx), the session, the toasts (whose Open
// navigates through the router), the socket, and the one note dialog a Critical's acknowledgement opens from a toast,
// a map popup or the Critical bar (beside the screens, so it outlives the toast that opened it).
import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider } from '../lib/auth';
import { RealtimeProvider } from '../lib/realtime';
import { ToastProvider } from '../lib/toast';
import { ApiError } from '../lib/api-client';
import { alertWorkflowToastActions } from '../features/alerts/alert-workflow-actions';
import { AcknowledgeNoteHost } from '../features/alerts/acknowledge-with-note';
import { router } from './router';

// The toasts sit outside the router's tree (RouterProvider is a child): their Open goes through the router itself.
const toastActions = alertWorkflowToastActions((path) => void router.navigate(path));

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not get better by asking again.
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ToastProvider alertActions={toastActions}>
          <RealtimeProvider>{children}</RealtimeProvider>
          <AcknowledgeNoteHost />
        </ToastProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
