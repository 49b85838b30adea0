// The selected geofence: rename, change type, alert type, dwell and buffer, or delete after a confirmation
// (DECISIONS.md item 11; dwell and buffer from issue 4).
import { useState, type FormEvent } from 'react';
import {
  ALERT_TYPES,
  GEOFENCE_TYPES,
  geofenceUpdate,
  type AlertType,
  type Geofence,
  type GeofenceType,
} from '@prison/shared';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { useDeleteGeofence, useUpdateGeofence } from '../api/geofences';

export function GeofenceEditor({ geofence, onClose }: { geofence: Geofence; onClose(): void }) {
  const [name, setName] = useState(geofence.name);
  const [type, setType] = useState<GeofenceType>(geofence.type);
  const [alertType, setAlertType] = useState<AlertType>(geofence.alert_type);
  const [dwell, setDwell] = useState(String(geofence.dwell_seconds));
  const [buffer, setBuffer] = useState(String(geofence.buffer_meters));
  const [formError, setFormError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useUpdateGeofence();
  const remove = useDeleteGeofence();
  const { notify } = useToast();

  const save = (event: FormEvent) => {
    event.preventDefault();
    const parsed = geofenceUpdate.safeParse({
      name,
      type,
      alert_type: alertType,
      dwell_seconds: dwell.trim() === '' ? Number.NaN : Number(dwell),
      buffer_meters: buffer.trim() === '' ? Number.NaN : Number(buffer),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setFormError(`${String(issue.path[0] ?? 'input')}: ${issue.message}`);
      return;
    }
    setFormError(null);
    update.mutate(
      { id: geofence.geofence_id, changes: parsed.data },
      {
        onSuccess: () => notify('Geofence updated.'),
        onError: (error) => setFormError(errorMessage(error, 'Failed to update the geofence.')),
      },
    );
  };

  const confirmRemoval = () =>
    remove.mutate(geofence.geofence_id, {
      onSuccess: () => {
        setConfirmDelete(false);
        notify('Geofence deleted.');
        onClose();
      },
    });

  return (
    <section
      aria-labelledby="geofence-editor-title"
      className="flex flex-col gap-3 border-b border-slate-200 p-4"
      data-testid="geofence-editor"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="geofence-editor-title" className="font-semibold">
          {geofence.shape} geofence
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      <form className="flex flex-col gap-3" onSubmit={save} noValidate>
        <TextField
          label="Geofence Name"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        <SelectField
          label="Geofence Type"
          options={GEOFENCE_TYPES}
          value={type}
          onChange={(event) => setType(event.target.value as GeofenceType)}
        />
        <SelectField
          label="Alert Type"
          options={ALERT_TYPES}
          value={alertType}
          onChange={(event) => setAlertType(event.target.value as AlertType)}
        />
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Dwell (seconds)"
            type="number"
            min={0}
            max={86400}
            step={1}
            value={dwell}
            hint="How long a violation lasts before it alerts"
            onChange={(event) => setDwell(event.target.value)}
          />
          <TextField
            label="Buffer (metres)"
            type="number"
            min={0}
            max={10000}
            value={buffer}
            hint="Tolerance at the edge"
            onChange={(event) => setBuffer(event.target.value)}
          />
        </div>
        {formError && (
          <p role="alert" className="text-sm text-red-700">
            {formError}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" busy={update.isPending}>
            Save Changes
          </Button>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete Geofence
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete geofence"
        message={`Are you sure you want to delete the geofence "${geofence.name}"? Alerts stop for it at once.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error, 'Failed to delete the geofence.') : null}
        onConfirm={confirmRemoval}
        onCancel={() => {
          setConfirmDelete(false);
          remove.reset();
        }}
      />
    </section>
  );
}
