// Whether unacknowledged Criticals are escalated outside the control room, and after how long (GET
// /escalation/settings): the Critical bar says when nobody outside has been told (decision 105).
import { useQuery } from '@tanstack/react-query';
import type { EscalationSettings } from '@prison/shared/escalation';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

export function useEscalationSettings() {
  const { status } = useAuth();
  return useQuery({
    queryKey: ['escalation', 'settings'],
    queryFn: ({ signal }) => api.get<EscalationSettings>('/escalation/settings', undefined, signal),
    enabled: status === 'authenticated',
    // Set at the server's start: read once a session.
    staleTime: Infinity,
  });
}
