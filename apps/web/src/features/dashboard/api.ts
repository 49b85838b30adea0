// The management screen's calls (docs/CLIENT-CONTRACT.md). Query keys start with their topic, so the socket's
// `dataChanged` event refreshes them.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { StaffRole } from '@prison/shared/constants';
import type { PrisonerHoldings } from '@prison/shared/custody-archive';
import type { Prisoner, PrisonerInput, PrisonerListQuery, PrisonerListResponse } from '@prison/shared/prisoner';
import type { StaffInput, StaffListQuery, StaffListResponse, StaffMember } from '@prison/shared/staff';
import { api } from '../../lib/api-client';

export type PrisonerFilters = Partial<Omit<PrisonerListQuery, 'limit'>>;
export type StaffFilters = Partial<Omit<StaffListQuery, 'limit'>>;

export function usePrisonerList(query: PrisonerFilters) {
  return useQuery({
    queryKey: ['prisoners', 'list', query],
    queryFn: ({ signal }) => api.get<PrisonerListResponse>('/prisoner/all', query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useStaffList(role: StaffRole, query: StaffFilters) {
  return useQuery({
    queryKey: ['staff', 'list', role, query],
    queryFn: ({ signal }) => api.get<StaffListResponse>(`/staff/getbyRole/${role}`, query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Totals for the tab badges: the list call with one row, unfiltered. */
export function usePrisonerCount() {
  return useQuery({
    queryKey: ['prisoners', 'count'],
    queryFn: ({ signal }) => api.get<PrisonerListResponse>('/prisoner/all', { limit: 1 }, signal).then((r) => r.totalPrisoners),
  });
}

export function useStaffCount(role: StaffRole) {
  return useQuery({
    queryKey: ['staff', 'count', role],
    queryFn: ({ signal }) => api.get<StaffListResponse>(`/staff/getbyRole/${role}`, { limit: 1 }, signal).then((r) => r.totalStaff),
  });
}

export const createPrisoner = (input: PrisonerInput) => api.post<Prisoner>('/prisoner/add', input);
export const registerCellOccupant = (cellId: string) =>
  api.get<unknown>(`/cell_controls/addOccupant/${encodeURIComponent(cellId)}`);
export const deletePrisoner = (id: number) => api.delete<unknown>(`/prisoner/delete/${id}`);
export const restorePrisoner = (id: number) => api.post<Prisoner>(`/prisoner/restore/${id}`);

/** What a prisoner still has, for the Delete confirmation (decision 042). */
export function usePrisonerHoldings(id: number | null) {
  return useQuery({
    queryKey: ['prisoners', 'holdings', id],
    queryFn: ({ signal }) => api.get<PrisonerHoldings>(`/prisoner/holdings/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

export const createStaff = (input: StaffInput) => api.post<StaffMember>('/staff/add', input);
export const updateStaff = (id: number, input: StaffInput) => api.put<StaffMember>(`/staff/update/${id}`, input);
export const deleteStaff = (id: number) => api.delete<unknown>(`/staff/delete/${id}`);
export const restoreStaff = (id: number) => api.post<StaffMember>(`/staff/restore/${id}`);
