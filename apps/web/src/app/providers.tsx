// The app's providers, inside the router and around the pages: the query client (no retry of a 4xx), the session, the toasts (whose Open
// navigates through the router), the socket, and the one note dialog a Critical's acknowledgement opens from a toast,
// a map popup or the Critical bar (beside the screens, so it outlives the toast that opened it).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider } from '../lib/auth';
import { RealtimeProvider } from '../lib/realtime';
import { ToastProvider } from '../lib/toast';
import { ApiError } from '../lib/api-client';
import { alertWorkflowToastActions } from '../features/alerts/alert-workflow-actions';
import { AcknowledgeNoteHost } from '../features/alerts/acknowledge-with-note';

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
  // The toasts' Open navigates with the latest navigate, through one component made once: a new component on every
  // navigation would remount the toast's buttons.
  const navigate = useNavigate();
  const latestNavigate = useRef(navigate);
  useEffect(() => {
    latestNavigate.current = navigate;
  }, [navigate]);
  const [toastActions] = useState(() => alertWorkflowToastActions((path) => void latestNavigate.current(path)));
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
