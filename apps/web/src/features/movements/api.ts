// GET /movements (today's, kept live: the socket's dataChanged('movements') refetches every key starting 'movements')
// and POST /movements; the pickers' prisoners, geofences and staff.
import { useQuery } from '@tanstack/react-query';
import { STAFF_ROLES } from '@prison/shared/constants';
import type { Movement } from '@prison/shared/movement';
import type { StaffListResponse } from '@prison/shared/staff';
import { api } from '../../lib/api-client';

export const MOVEMENTS_KEY = ['movements'] as const;

export function useMovements(prisonerId?: number) {
  return useQuery({
    queryKey: prisonerId === undefined ? [...MOVEMENTS_KEY, 'today'] : [...MOVEMENTS_KEY, 'prisoner', prisonerId],
    queryFn: ({ signal }) => api.get<{ data: Movement[] }>('/movements', prisonerId === undefined ? undefined : { prisoner_id: prisonerId }, signal).then((r) => r.data),
  });
}

export function useStaff() {
  return useQuery({
    queryKey: ['staff', 'movement-escorts'],
    queryFn: async ({ signal }) => (await Promise.all(STAFF_ROLES.map((role) => api.get<StaffListResponse>(`/staff/getbyRole/${role}`, { limit: 50 }, signal).then((r) => r.staffMembers)))).flat(),
  });
}
