// The tracking device box (DECISIONS.md item 16): the assigned device's id and name, and assigning another one.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_DEVICE_NAME, type Prisoner } from '@prison/shared';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { assignDevice, useDevices } from './api';

export function TrackingDeviceBox({ prisoner }: { prisoner: Prisoner }) {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [managing, setManaging] = useState(false);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmUnassign, setConfirmUnassign] = useState(false);
  const devices = useDevices(managing);
  const deviceId = prisoner.tracking_device_id;
  // A device can be given to this prisoner when it is free (or already theirs).
  const available = devices.data?.filter((d) => d.prisoner_id === null && d.id !== deviceId) ?? [];

  async function change(targetDevice: string, prisonerId: number | null, message: string) {
    setBusy(true);
    setError(null);
    try {
      await assignDevice(targetDevice, prisonerId);
      notify(message);
      setChosen('');
      setConfirmUnassign(false);
      setManaging(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['prisoners'] }),
        queryClient.invalidateQueries({ queryKey: ['devices'] }),
      ]);
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to update the tracking device. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby="device-title"
      className="rounded-lg bg-white p-5 shadow-sm"
      data-testid="tracking-device-box"
    >
      <h2 id="device-title" className="mb-3 text-lg font-semibold text-slate-900">
        Tracking Device
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-medium text-slate-600">Tracking Device Id</dt>
        <dd className="break-all text-slate-900" data-testid="tracking-device-id">
          {deviceId ?? 'Not found'}
        </dd>
        <dt className="font-medium text-slate-600">Device</dt>
        <dd className="text-slate-900" data-testid="tracking-device-name">
          {deviceId ? prisoner.tracking_device_name || DEFAULT_DEVICE_NAME : DEFAULT_DEVICE_NAME}
        </dd>
      </dl>

      {!managing ? (
        <Button variant="secondary" size="sm" className="mt-4" onClick={() => setManaging(true)}>
          {deviceId ? 'Change device' : 'Assign device'}
        </Button>
      ) : devices.isPending ? (
        <p className="mt-4 text-sm text-slate-600">Loading devices...</p>
      ) : devices.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {errorMessage(devices.error, 'Failed to fetch devices.')}
        </p>
      ) : (
        <div className="mt-4 flex flex-col gap-2">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            Device to assign
            <select
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              <option value="">{available.length ? 'Select a free device' : 'No free devices'}</option>
              {available.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.id})
                </option>
              ))}
            </select>
          </label>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              disabled={!chosen}
              busy={busy}
              onClick={() => void change(chosen, prisoner.prisoner_id, 'Tracking device assigned.')}
            >
              Assign
            </Button>
            {deviceId && (
              <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirmUnassign(true)}>
                Unassign current device
              </Button>
            )}
            <Button size="sm" variant="secondary" onClick={() => setManaging(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {error && !confirmUnassign && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirmUnassign}
        title="Unassign device"
        message="Remove the tracking device from this prisoner? Their position will no longer be tracked."
        confirmLabel="Unassign"
        busy={busy}
        error={error}
        onConfirm={() => deviceId && void change(deviceId, null, 'Tracking device unassigned.')}
        onCancel={() => setConfirmUnassign(false)}
      />
    </section>
  );
}
