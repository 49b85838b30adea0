// The details screen's calls (docs/CLIENT-CONTRACT.md), the tracking devices of engineer C2's API and the prisoner's open
// alerts (the live picture, decision 029).
import { useQuery } from '@tanstack/react-query';
import type { AlertPage } from '@prison/shared/alert';
import type { Device, DeviceCreated, DeviceInput } from '@prison/shared/device';
import type { Prisoner, PrisonerInput } from '@prison/shared/prisoner';
import { api } from '../../lib/api-client';

export const prisonerKey = (id: number) => ['prisoners', 'detail', id] as const;

export function usePrisoner(id: number) {
  return useQuery({
    queryKey: prisonerKey(id),
    queryFn: ({ signal }) => api.get<{ data: Prisoner }>(`/prisoner/prisonerid/${id}`, undefined, signal).then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export const updatePrisoner = (id: number, input: PrisonerInput) => api.put<Prisoner>(`/prisoner/update/${id}`, input);

export function useDevices(enabled: boolean) {
  return useQuery({
    queryKey: ['devices', 'list'],
    queryFn: ({ signal }) => api.get<{ data: Device[] }>('/devices', undefined, signal).then((r) => r.data),
    enabled,
    retry: false,
  });
}

export const assignDevice = (deviceId: string, prisonerId: number | null) =>
  api.put<Device>(`/devices/${encodeURIComponent(deviceId)}/assign`, { prisoner_id: prisonerId });

/** Register a device (SPEC "Beyond the spec"): with prisoner_id it is assigned in the same call. */
export const registerDevice = (input: DeviceInput) => api.post<DeviceCreated>('/devices', input);

/** Whether the device must send its secret while the server's DEVICE_SECRET_REQUIRED is off (decision 038). */
/** A new secret for a lost or replaced phone: answered once, the old one refused at once (decision 038). */
export const rotateDeviceSecret = (deviceId: string) => api.post<DeviceCreated>(`/devices/${encodeURIComponent(deviceId)}/rotate-secret`);

export const setDeviceSecretRequired = (deviceId: string, required: boolean) =>
  api.put<Device>(`/devices/${encodeURIComponent(deviceId)}/secret-required`, { secret_required: required });

export const deviceKey = (id: string) => ['devices', 'detail', id] as const;

/** The prisoner's tracker as stored: last fix, battery, online (GET /devices/{id}); null when there is none. */
export function useDevice(id: string | null) {
  return useQuery({
    queryKey: deviceKey(id ?? ''),
    queryFn: ({ signal }) => api.get<Device>(`/devices/${encodeURIComponent(id!)}`, undefined, signal),
    enabled: id !== null,
  });
}

/**
 * The prisoner's open (unacknowledged) alerts that need action (an Informational zone entry is an event, not work);
 * keyed 'alerts', so a live alert or anyone's step refreshes them.
 */
export function usePrisonerOpenAlerts(prisonerId: number) {
  return useQuery({
    queryKey: ['alerts', 'prisoner-open', prisonerId],
    queryFn: ({ signal }) =>
      api.get<AlertPage>(
        '/alert/prisoneralerts',
        { prisoner_id: prisonerId, status: 'New', limit: OPEN_ALERTS_SHOWN, needs_action: 'true' },
        signal,
      ),
  });
}

/** The open alerts listed on the details screen; more are counted and linked to the alerts screen. */
export const OPEN_ALERTS_SHOWN = 10;
