// The live map's socket subscription: snapshots and changes into the feed, and the device list refetched when a
// tracker leaves.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSocket } from '../../lib/realtime';
import { DEVICES_QUERY_KEY } from './api/tracked-prisoners';
import type { LivePositionFeed } from './live-position-feed';

/** Subscribes the feed to the socket; after every (re)connect it asks for a fresh snapshot (docs/CLIENT-CONTRACT.md). */
export function useLiveFeed(feed: LivePositionFeed) {
  const socket = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    // A tracker that left (offline, removed, unassigned): the device list says which, and where it was last seen.
    let refetchTimer: ReturnType<typeof setTimeout> | null = null;
    const refetchDevices = () => {
      refetchTimer ??= setTimeout(() => {
        refetchTimer = null;
        void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
      }, 300);
    };
    const requestSnapshot = () => socket.emit('requestSnapshot');
    const onSnapshot = (snapshot: Parameters<LivePositionFeed['snapshot']>[0]) => feed.snapshot(snapshot);
    const onChanges = (changes: Parameters<LivePositionFeed['changes']>[0]) => {
      feed.changes(changes);
      if (changes.gone.length) refetchDevices();
    };
    const onDisconnected = (trackingId: string) => {
      feed.disconnected(trackingId);
      refetchDevices();
    };
    socket.on('locationUpdate', onSnapshot);
    socket.on('locationChanges', onChanges);
    socket.on('userDisconnected', onDisconnected);
    socket.on('connect', requestSnapshot);
    // The socket connected before this page opened, so its first snapshot went by unseen.
    if (socket.connected) requestSnapshot();
    return () => {
      socket.off('locationUpdate', onSnapshot);
      socket.off('locationChanges', onChanges);
      socket.off('userDisconnected', onDisconnected);
      socket.off('connect', requestSnapshot);
      if (refetchTimer) clearTimeout(refetchTimer);
    };
  }, [socket, feed, queryClient]);
}
