// The server's settings for this client (map tiles, start view, whether devices need a secret): read once per page load.
import { useQuery } from '@tanstack/react-query';
import type { ClientSettings } from '@prison/shared/settings';
import { api } from './api-client';

export function useClientSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => api.get<ClientSettings>('/settings', undefined, signal), staleTime: Infinity });
}
