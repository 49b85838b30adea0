// The control-room log as several screens read it: the entries linked to one record (a prisoner, an alert, an
// incident), the handovers this account has still to confirm reading, and the confirmation. Every key sits under
// ['messages'], so the socket's dataChanged('messages') and a new entry refetch them all.
import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { LogMessage, MessageLinkKind, MessageList, PendingHandovers } from '@prison/shared/message';
import { api } from './api-client';
import { useSocketEvent } from './realtime';

export const LOG_QUERY_KEY = ['messages'] as const;
export const PENDING_HANDOVERS_KEY = ['messages', 'handovers', 'pending'] as const;
/** The newest entries linked to one record a section shows; the log screen holds the rest. */
export const LINKED_ENTRIES_SHOWN = 20;

const LINK_FILTER: Record<MessageLinkKind, 'prisoner_id' | 'alert_id' | 'incident_id'> = {
  prisoner: 'prisoner_id',
  alert: 'alert_id',
  incident: 'incident_id',
};

export function useLinkedLogEntries(kind: MessageLinkKind, id: number) {
  return useQuery({
    queryKey: [...LOG_QUERY_KEY, 'linked', kind, id],
    queryFn: ({ signal }) => api.get<MessageList>('/messages', { [LINK_FILTER[kind]]: id, limit: LINKED_ENTRIES_SHOWN }, signal),
  });
}

export function usePendingHandovers(enabled: boolean) {
  return useQuery({
    queryKey: PENDING_HANDOVERS_KEY,
    queryFn: ({ signal }) => api.get<PendingHandovers>('/messages/handovers/pending', undefined, signal),
    enabled,
    // A confirmation in another tab of this account is caught up within a minute even without its event.
    refetchInterval: 60_000,
  });
}

export function useConfirmHandover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<LogMessage>(`/messages/${id}/read`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LOG_QUERY_KEY }),
  });
}

/** A new entry anywhere: the lists read it again, each through the account's caseload (the event has no links). */
export function useLiveLogEntries() {
  const queryClient = useQueryClient();
  useSocketEvent('messagePosted', () => void queryClient.invalidateQueries({ queryKey: LOG_QUERY_KEY }));
}
