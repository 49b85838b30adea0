// The tracking device box (docs/CLIENT-CONTRACT.md): the assigned device's id, name and kind (phone or tag, decision
// 092), and assigning another one: a free device, or a new one registered here and assigned in the same call
// (decision 029). The spec's default device name is for a device without a name; a prisoner without a device reads
// "No tracker assigned".
import { useMay } from '../../lib/use-may';
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_DEVICE_NAME, DEVICE_KIND_LABELS, type DeviceCreated, type DeviceKind } from '@prison/shared/device';
import type { Prisoner } from '@prison/shared/prisoner';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { useClientSettings } from '../../lib/client-settings';
import { assignDevice, registerDevice, rotateDeviceSecret, setDeviceSecretRequired, useDevice, useDevices } from './api';

export function TrackingDeviceBox({ prisoner }: { prisoner: Prisoner }) {
  const mayManage = useMay('devices.write');
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [managing, setManaging] = useState(false);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmUnassign, setConfirmUnassign] = useState(false);
  const [created, setCreated] = useState<DeviceCreated | null>(null);
  const devices = useDevices(managing);
  const deviceId = prisoner.tracking_device_id;
  // A device can be given to this prisoner when it is free (or already theirs).
  const available = devices.data?.filter((d) => d.prisoner_id === null && d.staff_id == null && d.id !== deviceId) ?? [];

  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['prisoners'] }),
      queryClient.invalidateQueries({ queryKey: ['devices'] }),
    ]);
  }

  async function change(targetDevice: string, prisonerId: number | null, message: string) {
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      await assignDevice(targetDevice, prisonerId);
      notify(message);
      setChosen('');
      setConfirmUnassign(false);
      setManaging(false);
      await refresh();
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
          {deviceId ? prisoner.tracking_device_name || DEFAULT_DEVICE_NAME : 'No tracker assigned'}
        </dd>
        {deviceId && <DeviceKindRow deviceId={deviceId} />}
        {deviceId && <DeviceSecretRow deviceId={deviceId} />}
      </dl>
      {created && <NewDeviceSecret device={created} onDone={() => setCreated(null)} text={`Device ${created.id} registered. Its secret is shown this once:`} />}

      {!mayManage ? null : !managing ? (
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
                  {d.name} ({d.id}){d.kind ? `, ${DEVICE_KIND_LABELS[d.kind]}` : ''}
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
          <RegisterDeviceForm
            prisonerId={prisoner.prisoner_id}
            onRegistered={async (device) => {
              notify('Tracking device registered and assigned.');
              setManaging(false);
              setCreated(device);
              await refresh();
            }}
          />
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

/**
 * Registers a new device and assigns it to this prisoner in one call (POST /devices with prisoner_id). The id is the
 * one the tracker reports (a phone app shows it); left empty, the server makes one up.
 */
function RegisterDeviceForm({
  prisonerId,
  onRegistered,
}: {
  prisonerId: number;
  onRegistered(device: DeviceCreated): Promise<void>;
}) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DeviceKind | null>(null);
  const [kindError, setKindError] = useState<string | null>(null);
  const kindId = useId();
  const [secretRequired, setSecretRequired] = useState(false);
  const serverRequiresSecret = useClientSettings().data?.deviceSecretRequired ?? true;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // No default: a tag registered as a phone would refuse its readers, a phone as a tag would let them move it.
    if (!kind) {
      setKindError('Choose whether it is a phone or a tag.');
      return;
    }
    setKindError(null);
    setBusy(true);
    setError(null);
    try {
      const device = await registerDevice({
        id: id.trim() || undefined,
        name: name.trim() || undefined,
        kind,
        prisoner_id: prisonerId,
        ...(secretRequired ? { secret_required: true } : {}),
      });
      setId('');
      setName('');
      setKind(null);
      setSecretRequired(false);
      await onRegistered(device);
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to register the device. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      aria-labelledby="register-device-title"
      className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3"
      data-testid="register-device-form"
    >
      <h3 id="register-device-title" className="text-sm font-semibold text-slate-800">
        Register a new device
      </h3>
      <TextField
        label="Device identifier"
        hint="As the tracker reports it; left empty, one is made up."
        value={id}
        maxLength={100}
        autoComplete="off"
        onChange={(event) => setId(event.target.value)}
      />
      <TextField
        label="Device name"
        hint={`Left empty: ${DEFAULT_DEVICE_NAME}.`}
        value={name}
        maxLength={100}
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={kindError ? `${kindId}-error` : undefined}
        aria-invalid={kindError ? true : undefined}
      >
        <legend className="text-sm font-medium text-slate-700">Kind</legend>
        {KIND_CHOICES.map((choice) => (
          <label key={choice.kind} className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name={`${kindId}-kind`}
              value={choice.kind}
              checked={kind === choice.kind}
              onChange={() => {
                setKind(choice.kind);
                setKindError(null);
              }}
              className="mt-1"
            />
            <span>
              {DEVICE_KIND_LABELS[choice.kind]}
              <span className="block text-xs text-slate-600">{choice.hint}</span>
            </span>
          </label>
        ))}
        {kindError && (
          <p id={`${kindId}-error`} className="text-xs text-red-700">
            {kindError}
          </p>
        )}
      </fieldset>
      {serverRequiresSecret ? (
        <p className="text-xs text-slate-600">The device must send the secret shown after registering (Traccar Client: server URL ending in ?secret=…).</p>
      ) : (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={secretRequired} onChange={(event) => setSecretRequired(event.target.checked)} />
          Require its secret (otherwise its id alone is accepted on OsmAnd)
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" size="sm" busy={busy}>
          Register and assign
        </Button>
      </div>
    </form>
  );
}

const KIND_CHOICES: { kind: DeviceKind; hint: string }[] = [
  { kind: 'phone', hint: 'Reports its own position (Traccar Client, OsmAnd, a gateway).' },
  { kind: 'tag', hint: 'Has no position of its own: placed by the indoor readers that see it.' },
];

/** Phone or tag (decision 092), from the device's record; fixed at registration. */
function DeviceKindRow({ deviceId }: { deviceId: string }) {
  const device = useDevice(deviceId);
  const kind = device.data?.kind;
  return (
    <>
      <dt className="font-medium text-slate-600">Kind</dt>
      <dd className="text-slate-900" data-testid="tracking-device-kind">
        {device.isPending ? 'Loading...' : device.isError ? errorMessage(device.error, 'Failed to fetch the device.') : kind ? DEVICE_KIND_LABELS[kind] : 'Not known'}
      </dd>
    </>
  );
}

/**
 * Whether the tracker must send its secret (decision 038): always while the server requires it of every device,
 * otherwise per device, switched here (audited). A new secret for a lost or replaced phone, after confirming.
 */
function DeviceSecretRow({ deviceId }: { deviceId: string }) {
  const mayManage = useMay('devices.write');
  const queryClient = useQueryClient();
  const device = useDevice(deviceId);
  const serverRequiresSecret = useClientSettings().data?.deviceSecretRequired ?? true;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<DeviceCreated | null>(null);
  const required = serverRequiresSecret || device.data?.secret_required === true;

  async function rotate() {
    setRotating(true);
    setRotateError(null);
    try {
      setRotated(await rotateDeviceSecret(deviceId));
      setConfirmRotate(false);
    } catch (failure) {
      setRotateError(errorMessage(failure, 'Failed to give the device a new secret. Please try again.'));
    } finally {
      setRotating(false);
    }
  }

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      await setDeviceSecretRequired(deviceId, !device.data?.secret_required);
      await queryClient.invalidateQueries({ queryKey: ['devices'] });
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to change the device. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <dt className="font-medium text-slate-600">Device secret</dt>
      <dd className="text-slate-900" data-testid="tracking-device-secret">
        {serverRequiresSecret ? 'Required (server setting)' : required ? 'Required' : 'Not required: its id alone is accepted'}
        {!serverRequiresSecret && device.data && mayManage && (
          <Button size="sm" variant="secondary" className="ml-2" busy={busy} onClick={() => void toggle()}>
            {required ? 'Accept id alone' : 'Require secret'}
          </Button>
        )}
        {mayManage && (
          <Button size="sm" variant="secondary" className="ml-2" onClick={() => setConfirmRotate(true)}>
            New secret
          </Button>
        )}
        {error && (
          <span role="alert" className="block text-sm text-red-700">
            {error}
          </span>
        )}
        {rotated && (
          <NewDeviceSecret
            device={rotated}
            onDone={() => setRotated(null)}
            text={`Device ${rotated.id} has a new secret, shown this once; its old secret is refused from now on:`}
          />
        )}
        <ConfirmDialog
          open={confirmRotate}
          title="New device secret"
          message={`Give device ${deviceId} a new secret? Its current secret is refused at once, so its fixes are refused until the phone is set up with the new one.`}
          confirmLabel="New secret"
          busy={rotating}
          error={rotateError}
          onConfirm={() => void rotate()}
          onCancel={() => {
            setRotateError(null);
            setConfirmRotate(false);
          }}
        />
      </dd>
    </>
  );
}

/** A device's secret, answered once by the server (only its hash is stored): shown until dismissed. */
function NewDeviceSecret({ device, onDone, text }: { device: DeviceCreated; onDone(): void; text: string }) {
  return (
    <div role="status" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">{text}</p>
      <code className="mt-1 block break-all rounded bg-white px-2 py-1" data-testid="new-device-secret">
        {device.secret}
      </code>
      <Button size="sm" variant="secondary" className="mt-2" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
