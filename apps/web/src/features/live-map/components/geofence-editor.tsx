// The selected geofence: rename, change type, alert type, dwell and buffer, change its shape on the map, or delete
// after a confirmation (docs/CLIENT-CONTRACT.md; dwell and buffer of our own). A new shape keeps the geofence's id.
// A change that weakens the alarm (and every reshape and delete) asks for a reason before saving and then waits for
// a second administrator; the geofence shows it as "Change pending approval" (decision 041).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ALERT_TYPES, type AlertType, type GeofenceType } from '@prison/shared/constants';
import { geofenceUpdate, MAX_DWELL_SECONDS, type Geofence } from '@prison/shared/geofence';
import { compareGeofences } from '@prison/shared/geofence-change';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import type { DrawnGeometry } from '../../../map/drawn-shape';
import { useDeleteGeofence, useUpdateGeofence } from '../api/geofences';
import { usePendingChanges } from '../api/pending-changes';
import { GeofenceRulesFields, rulesDraftOf, rulesFromDraft } from './geofence-rules-fields';
import { GeofenceTypeField } from './geofence-type-field';
import { PendingChangeNotice } from './pending-change-notice';
import { defaultUntilValue, reasonProblem, untilInstant, untilProblem, WeakeningReason } from './weakening-reason';

/** A number typed in a field, or the stored value while the field is not a number yet. */
const numberOr = (text: string, stored: number) => (text.trim() === '' || Number.isNaN(Number(text)) ? stored : Number(text));

/** What the edit handles on the map do, per shape (leaflet-geoman's edit handles). */
const SHAPE_HINTS = {
  Circle: 'Drag the handles on the map: the centre one moves the circle, the other changes its radius.',
  Rectangle: 'Drag the handles on the map: a corner resizes the rectangle, the centre one moves it.',
  Polygon: 'Drag the handles on the map: a corner moves, a midpoint adds a corner; click a corner to remove it.',
} as const;

interface GeofenceEditorProps {
  geofence: Geofence;
  /** The shape being edited on the map, as it now is; null when the shape is not being edited. */
  shapeDraft: DrawnGeometry | null;
  /** Null when the stored shape is incomplete and cannot be edited. */
  onEditShape: (() => void) | null;
  /** Leaves shape editing: the map draws the geofence as the server has it. */
  onEndShapeEdit(): void;
  onClose(): void;
}

export function GeofenceEditor({ geofence, shapeDraft, onEditShape, onEndShapeEdit, onClose }: GeofenceEditorProps) {
  const [name, setName] = useState(geofence.name);
  const [type, setType] = useState<GeofenceType>(geofence.type);
  const [alertType, setAlertType] = useState<AlertType>(geofence.alert_type);
  const [dwell, setDwell] = useState(String(geofence.dwell_seconds));
  const [buffer, setBuffer] = useState(String(geofence.buffer_meters));
  const [rules, setRules] = useState(() => rulesDraftOf(geofence));
  const [formError, setFormError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [shapeReason, setShapeReason] = useState('');
  const [shapeReasonError, setShapeReasonError] = useState<string | undefined>();
  const [deleteReason, setDeleteReason] = useState('');
  const [deleteReasonError, setDeleteReasonError] = useState<string | undefined>();
  // A weakening of a Critical or Warning zone ends by itself (decision 091): when, for whichever form is sent.
  const ends = geofence.alert_type === 'Critical' || geofence.alert_type === 'Warning';
  const [until, setUntil] = useState(defaultUntilValue);
  const [untilError, setUntilError] = useState<string | undefined>();
  const untilField = ends ? { value: until, onChange: setUntil, error: untilError } : undefined;
  /** Checks the end time when the zone has one; answers whether the form may be sent. */
  const untilOk = () => {
    const problem = ends ? untilProblem(until) : undefined;
    setUntilError(problem);
    return !problem;
  };
  const untilBody = () => (ends ? { until: untilInstant(until) } : {});
  const update = useUpdateGeofence();
  const updateShape = useUpdateGeofence();
  const remove = useDeleteGeofence();
  const { notify } = useToast();
  const pendingChanges = usePendingChanges();
  const pending = (pendingChanges.data ?? []).find(
    (change) => change.target_type === 'geofence' && change.target_id === geofence.geofence_id,
  );

  // What the form would change, judged as the server judges it: a weakening asks for a reason before saving.
  const checkedRules = rulesFromDraft(rules);
  const changes = compareGeofences(geofence, {
    ...geofence,
    name: name.trim() || geofence.name,
    type,
    alert_type: alertType,
    dwell_seconds: numberOr(dwell, geofence.dwell_seconds),
    buffer_meters: numberOr(buffer, geofence.buffer_meters),
    ...('rules' in checkedRules ? checkedRules.rules : {}),
  });
  const weakenings = changes.filter((change) => change.weakens).map((change) => change.text);

  /** After a change is sent for approval the form shows the geofence as it still is. */
  const resetForm = () => {
    setName(geofence.name);
    setType(geofence.type);
    setAlertType(geofence.alert_type);
    setDwell(String(geofence.dwell_seconds));
    setBuffer(String(geofence.buffer_meters));
    setRules(rulesDraftOf(geofence));
    setReason('');
  };

  // Keyboard focus follows the shape buttons as they replace each other.
  const editShapeButton = useRef<HTMLButtonElement>(null);
  const saveShapeButton = useRef<HTMLButtonElement>(null);
  const editingShape = shapeDraft !== null;
  const wasEditingShape = useRef(editingShape);
  useEffect(() => {
    if (wasEditingShape.current === editingShape) return;
    wasEditingShape.current = editingShape;
    (editingShape ? saveShapeButton : editShapeButton).current?.focus();
  }, [editingShape]);

  const saveShape = () => {
    if (!shapeDraft) return;
    // A reshape can leave a watched place unwatched: it always waits for a second person (decision 041).
    const problem = reasonProblem(shapeReason);
    setShapeReasonError(problem);
    if (!untilOk() || problem) return;
    updateShape.mutate(
      { id: geofence.geofence_id, changes: { ...shapeDraft, reason: shapeReason.trim(), ...untilBody() } },
      {
        // The list was refetched before this runs: the map draws the saved shape at once.
        onSuccess: (result) => {
          notify(result.pending ? 'New shape sent for approval by another administrator.' : 'Geofence shape saved.');
          setShapeReason('');
          onEndShapeEdit();
        },
      },
    );
  };

  const cancelShape = () => {
    updateShape.reset();
    onEndShapeEdit();
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const checked = rulesFromDraft(rules);
    if ('error' in checked) {
      setFormError(checked.error);
      return;
    }
    if (weakenings.length > 0) {
      const problem = reasonProblem(reason);
      setReasonError(problem);
      if (!untilOk() || problem) return;
    }
    const parsed = geofenceUpdate.safeParse({
      ...(weakenings.length > 0 && { reason, ...untilBody() }),
      ...checked.rules,
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
        onSuccess: (result) => {
          if (!result.pending) return notify('Geofence updated.');
          notify('Change sent for approval by another administrator.');
          resetForm();
        },
        onError: (error) => setFormError(errorMessage(error, 'Failed to update the geofence.')),
      },
    );
  };

  const confirmRemoval = () => {
    const problem = reasonProblem(deleteReason);
    setDeleteReasonError(problem);
    if (!untilOk() || problem) return;
    remove.mutate(
      { id: geofence.geofence_id, reason: deleteReason.trim(), ...untilBody() },
      {
        onSuccess: (result) => {
          setConfirmDelete(false);
          setDeleteReason('');
          notify(result.message);
        },
      },
    );
  };

  const closeDelete = () => {
    setConfirmDelete(false);
    setDeleteReason('');
    setDeleteReasonError(undefined);
    remove.reset();
  };

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
      {pending && <PendingChangeNotice change={pending} />}
      <form className="flex flex-col gap-3" onSubmit={save} noValidate>
        <TextField
          label="Geofence Name"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        <GeofenceTypeField value={type} onChange={setType} />
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
            max={MAX_DWELL_SECONDS}
            step={1}
            value={dwell}
            hint={`How long a crossing must last before it alerts (0-${MAX_DWELL_SECONDS}); back within it raises nothing`}
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
        <GeofenceRulesFields draft={rules} onChange={setRules} />
        {weakenings.length > 0 && (
          <WeakeningReason changes={weakenings} reason={reason} onReasonChange={setReason} error={reasonError} until={untilField} />
        )}
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
      <div className="flex flex-col gap-2 border-t border-slate-200 pt-3">
        <h3 className="text-sm font-medium text-slate-700">Shape</h3>
        {shapeDraft ? (
          <>
            <p className="text-sm text-slate-600">{SHAPE_HINTS[shapeDraft.shape]}</p>
            <WeakeningReason
              changes={[]}
              reason={shapeReason}
              onReasonChange={setShapeReason}
              error={shapeReasonError}
              until={untilField}
            />
            {updateShape.error && (
              <p role="alert" className="text-sm text-red-700">
                {errorMessage(updateShape.error, 'Failed to save the shape.')}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button ref={saveShapeButton} onClick={saveShape} busy={updateShape.isPending}>
                Save shape
              </Button>
              <Button variant="secondary" onClick={cancelShape} disabled={updateShape.isPending}>
                Cancel
              </Button>
            </div>
          </>
        ) : (
          onEditShape && (
            <div>
              <Button ref={editShapeButton} variant="secondary" onClick={onEditShape}>
                Edit shape
              </Button>
            </div>
          )
        )}
      </div>
      <Modal
        open={confirmDelete}
        onOpenChange={(next) => !next && closeDelete()}
        title="Delete geofence"
        footer={
          <>
            <Button variant="secondary" onClick={closeDelete}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmRemoval} busy={remove.isPending}>
              Delete
            </Button>
          </>
        }
      >
        <p className="mb-3 text-slate-700">
          Are you sure you want to delete the geofence "{geofence.name}"? Its alerts continue until another administrator
          approves the delete.
        </p>
        <WeakeningReason
          changes={[]}
          reason={deleteReason}
          onReasonChange={setDeleteReason}
          error={deleteReasonError}
          until={untilField}
        />
        {remove.error && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {errorMessage(remove.error, 'Failed to delete the geofence.')}
          </p>
        )}
      </Modal>
    </section>
  );
}
