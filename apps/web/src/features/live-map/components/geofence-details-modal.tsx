// "Enter Geofence Details" (docs/CLIENT-CONTRACT.md): opens after a shape is drawn. Cancel discards the shape
// (docs/CLIENT-CONTRACT.md); Save posts the geofence and closes.
import { useState, type FormEvent } from 'react';
import { ALERT_TYPES, type AlertType, type GeofenceType } from '@prison/shared/constants';
import { Modal } from '../../../components/ui/modal';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { GeofenceRulesFields, rulesDraftOf, rulesFromDraft, type GeofenceRules } from './geofence-rules-fields';
import { GeofenceTypeField } from './geofence-type-field';

export interface GeofenceDetails extends GeofenceRules {
  name: string;
  type: GeofenceType;
  alert_type: AlertType;
}

interface GeofenceDetailsModalProps {
  open: boolean;
  saving: boolean;
  error: string | null;
  onCancel(): void;
  onSave(details: GeofenceDetails): void;
}

export function GeofenceDetailsModal({ open, saving, error, onCancel, onSave }: GeofenceDetailsModalProps) {
  const [name, setName] = useState('');
  const [type, setType] = useState<GeofenceType>('Positive');
  const [alertType, setAlertType] = useState<AlertType>('Informational');
  const [nameError, setNameError] = useState<string | undefined>();
  const [rules, setRules] = useState(rulesDraftOf());
  const [rulesError, setRulesError] = useState<string | null>(null);

  // Every drawn shape starts from the defaults (docs/CLIENT-CONTRACT.md: Positive, Informational).
  const reset = () => {
    setName('');
    setType('Positive');
    setAlertType('Informational');
    setNameError(undefined);
    setRules(rulesDraftOf());
    setRulesError(null);
  };

  const cancel = () => {
    reset();
    onCancel();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Geofence Name is required');
      return;
    }
    const checked = rulesFromDraft(rules);
    if ('error' in checked) {
      setRulesError(checked.error);
      return;
    }
    setRulesError(null);
    onSave({ name: trimmed, type, alert_type: alertType, ...checked.rules });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && !saving && cancel()}
      title="Enter Geofence Details"
      footer={
        <>
          <Button variant="secondary" onClick={cancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form="geofence-details-form" busy={saving}>
            Save Geofence
          </Button>
        </>
      }
    >
      <form id="geofence-details-form" className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <TextField
          label="Geofence Name"
          name="name"
          value={name}
          required
          maxLength={100}
          autoFocus
          autoComplete="off"
          error={nameError}
          onChange={(event) => {
            setName(event.target.value);
            if (event.target.value.trim()) setNameError(undefined);
          }}
        />
        <GeofenceTypeField value={type} onChange={setType} />
        <SelectField
          label="Alert Type"
          name="alert_type"
          options={ALERT_TYPES}
          value={alertType}
          onChange={(event) => setAlertType(event.target.value as AlertType)}
        />
        <GeofenceRulesFields draft={rules} onChange={setRules} />
        {rulesError && (
          <p role="alert" className="text-sm text-red-700">
            {rulesError}
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

/** A UUID v4 for the new geofence's id (docs/CLIENT-CONTRACT.md: generated on the client). randomUUID needs a secure context. */
export function newGeofenceId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
