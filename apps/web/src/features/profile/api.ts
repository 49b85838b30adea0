// Profile and admins: GET /profile, POST /profile/password, sessions, and the admins list with its actions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PendingChange } from '@prison/shared/pending-change';
import type {
  AdminAccount,
  AdminCreateRequest,
  AdminUpdateRequest,
  PasswordChangeRequest,
  Profile,
  SessionInfo,
  TotpConfirmRequest,
  TotpRecoveryCodes,
  TotpSetup,
  TotpStatus,
} from '@prison/shared/profile';
import { api } from '../../lib/api-client';

const SESSIONS_KEY = ['profile', 'sessions'] as const;
const ADMINS_KEY = ['admins'] as const;

export function useProfile() {
  return useQuery({ queryKey: ['profile', 'me'], queryFn: ({ signal }) => api.get<Profile>('/profile', undefined, signal) });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeRequest) => api.post<{ message: string }>('/profile/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: async ({ signal }) => (await api.get<{ sessions: SessionInfo[] }>('/profile/sessions', undefined, signal)).sessions,
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/profile/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useAdmins() {
  return useQuery({
    queryKey: ADMINS_KEY,
    queryFn: async ({ signal }) => (await api.get<{ admins: AdminAccount[] }>('/admins', undefined, signal)).admins,
  });
}

export function useCreateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    // 202 with `pending` for a new administrator: it takes effect when a second administrator approves (decision 091).
    mutationFn: (input: AdminCreateRequest) => api.post<AdminAccount & { pending?: PendingChange }>('/admins', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMINS_KEY }),
  });
}

/** Changes an account's role or caseload (PUT /admins/:id). */
export function useUpdateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: AdminUpdateRequest & { id: number }) =>
      api.put<AdminAccount & { pending?: PendingChange }>(`/admins/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMINS_KEY }),
  });
}

export type AdminAction = 'disable' | 'enable' | 'unlock';

export function useAdminAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: AdminAction }) =>
      api.post<AdminAccount>(`/admins/${id}/${action}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMINS_KEY }),
  });
}

const TOTP_KEY = ['profile', 'totp'] as const;

export function useTotpStatus() {
  return useQuery({ queryKey: TOTP_KEY, queryFn: ({ signal }) => api.get<TotpStatus>('/profile/totp', undefined, signal) });
}

export function useStartTotp() {
  return useMutation({ mutationFn: () => api.post<TotpSetup>('/profile/totp/setup') });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TotpConfirmRequest) => api.post<TotpRecoveryCodes>('/profile/totp/confirm', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_KEY }),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<{ message: string }>('/profile/totp/disable', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_KEY }),
  });
}
