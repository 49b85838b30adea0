// The details screen's calls (SPEC.md section 7) and the tracking devices of engineer C2's API.
import { useQuery } from '@tanstack/react-query';
import type { Device, Prisoner, PrisonerInput } from '@prison/shared';
import { api } from '../../lib/api-client';

export const prisonerKey = (id: number) => ['prisoners', 'detail', id] as const;

export function usePrisoner(id: number) {
  return useQuery({
    queryKey: prisonerKey(id),
    queryFn: () => api.get<{ data: Prisoner }>(`/prisoner/prisonerid/${id}`).then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export const updatePrisoner = (id: number, input: PrisonerInput) => api.put<Prisoner>(`/prisoner/update/${id}`, input);

export function useDevices(enabled: boolean) {
  return useQuery({
    queryKey: ['devices', 'list'],
    queryFn: () => api.get<{ data: Device[] }>('/devices').then((r) => r.data),
    enabled,
    retry: false,
  });
}

export const assignDevice = (deviceId: string, prisonerId: number | null) =>
  api.put<Device>(`/devices/${encodeURIComponent(deviceId)}/assign`, { prisoner_id: prisonerId });
