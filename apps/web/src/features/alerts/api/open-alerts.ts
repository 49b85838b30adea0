// Open (unacknowledged) alerts for the layout: the Critical bar's list, the top bar's counts per level and the
// Critical sound's repeat. One request: GET /alert/prisoneralerts?status=New&alert_type=Critical answers the open
// Criticals in `data` and, in `counts`, every level's open count (the counts ignore the type filter).
// The key starts with 'alerts', so a live alert (showAlert) and dataChanged('alerts') (anyone's acknowledgement)
// refresh it on every screen.
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertPage } from '@prison/shared/alert';
import { MAX_PAGE_SIZE } from '@prison/shared/constants';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useSocket } from '../../../lib/realtime';

export const OPEN_ALERTS_KEY = ['alerts', 'open-critical'] as const;

export function useOpenAlerts() {
  const { status } = useAuth();
  return useQuery({
    queryKey: OPEN_ALERTS_KEY,
    queryFn: ({ signal }) =>
      // Only work: an event (an Informational zone entry) is not counted as open.
      api.get<AlertPage>('/alert/prisoneralerts', { status: 'New', alert_type: 'Critical', limit: MAX_PAGE_SIZE, needs_action: 'true' }, signal),
    enabled: status === 'authenticated',
    // Events sent while the socket was down are refetched on reconnect; this is the last safety net.
    refetchInterval: 30_000,
  });
}

/**
 * Refetches the open alerts once the socket first connects: an alert raised between the page's first fetch and the
 * socket's connection would otherwise wait for the 30 s poll. Every later connect refetches all the alert lists
 * through the live feed's one refresher (lib/realtime.tsx), which this must not cancel. Mount once (the bar).
 */
export function useRefreshOpenAlertsOnConnect() {
  const socket = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: OPEN_ALERTS_KEY });
    if (socket.connected) refresh();
    else socket.once('connect', refresh);
    return () => {
      socket.off('connect', refresh);
    };
  }, [socket, queryClient]);
}
