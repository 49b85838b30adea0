// The account's Critical alert sound (GET/PUT /profile/critical-sound, decision 105): each account chooses its own;
// until it does, on for the roles that work alerts, off for the auditor and the records clerk.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CriticalSoundSetting } from '@prison/shared/profile';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

const CRITICAL_SOUND_KEY = ['profile', 'critical-sound'] as const;

export function useCriticalSoundSetting() {
  const { status } = useAuth();
  return useQuery({
    queryKey: CRITICAL_SOUND_KEY,
    queryFn: ({ signal }) => api.get<CriticalSoundSetting>('/profile/critical-sound', undefined, signal),
    enabled: status === 'authenticated',
    staleTime: Infinity,
  });
}

export function useSetCriticalSound() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => api.put<CriticalSoundSetting>('/profile/critical-sound', { on }),
    onSuccess: (setting) => queryClient.setQueryData(CRITICAL_SOUND_KEY, setting),
  });
}
