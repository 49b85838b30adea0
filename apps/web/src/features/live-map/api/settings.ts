// The map's tile URL, start point and zoom come from the server's configuration.
import { useQuery } from '@tanstack/react-query';
import type { ClientSettings } from '@prison/shared/settings';
import { api } from '../../../lib/api-client';

export function useClientSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => api.get<ClientSettings>('/settings', undefined, signal), staleTime: Infinity });
}
