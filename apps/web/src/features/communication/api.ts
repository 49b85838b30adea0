// GET /messages (newest first, paged back by id, searched by words, type and time) and POST /messages; a new entry
// anywhere refetches the list through this account's caseload (lib/log-entries).
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { LogMessage, MessageDraft, MessageList, MessageType } from '@prison/shared/message';
import { api } from '../../lib/api-client';
import { LOG_QUERY_KEY } from '../../lib/log-entries';

const PAGE_SIZE = 50;

export interface LogSearch {
  q?: string;
  type?: MessageType;
  /** ISO instants. */
  from?: string;
  to?: string;
}

export function useMessages(search: LogSearch) {
  return useInfiniteQuery({
    queryKey: [...LOG_QUERY_KEY, 'list', search],
    queryFn: ({ pageParam, signal }) =>
      api.get<MessageList>('/messages', { limit: PAGE_SIZE, before: pageParam, ...search }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.messages.at(-1)?.id : undefined),
  });
}

export function usePostMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: MessageDraft) => api.post<LogMessage>('/messages', draft),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LOG_QUERY_KEY }),
  });
}
