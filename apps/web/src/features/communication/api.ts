// GET /messages (newest first, paged back by id) and POST /messages; new entries arrive live (messagePosted).
import { useEffect } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { LogMessage, MessageList } from '@prison/shared/message';
import { api } from '../../lib/api-client';
import { useSocket, useSocketEvent } from '../../lib/realtime';

export const MESSAGES_QUERY_KEY = ['messages'] as const;
const PAGE_SIZE = 50;

export function useMessages() {
  return useInfiniteQuery({
    queryKey: MESSAGES_QUERY_KEY,
    queryFn: ({ pageParam, signal }) => api.get<MessageList>('/messages', { limit: PAGE_SIZE, before: pageParam }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.messages.at(-1)?.id : undefined),
  });
}

/** Puts a message at the top of the first page unless it is already shown (our own post arrives twice). */
function prepend(data: InfiniteData<MessageList, number | undefined> | undefined, message: LogMessage) {
  if (!data || data.pages.some((page) => page.messages.some((m) => m.id === message.id))) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first!, messages: [message, ...first!.messages] }, ...rest] };
}

/** Live entries from every browser go straight into the list; after a reconnect the list is read again. */
export function useLiveMessages() {
  const queryClient = useQueryClient();
  const socket = useSocket();
  useEffect(() => {
    if (!socket) return;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: MESSAGES_QUERY_KEY });
    socket.io.on('reconnect', refetch);
    return () => {
      socket.io.off('reconnect', refetch);
    };
  }, [socket, queryClient]);
  useSocketEvent('messagePosted', (message) => {
    queryClient.setQueryData<InfiniteData<MessageList, number | undefined>>(MESSAGES_QUERY_KEY, (data) =>
      prepend(data, message),
    );
  });
}

export function usePostMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api.post<LogMessage>('/messages', { body }),
    onSuccess: (message) =>
      queryClient.setQueryData<InfiniteData<MessageList, number | undefined>>(MESSAGES_QUERY_KEY, (data) =>
        prepend(data, message),
      ),
  });
}
