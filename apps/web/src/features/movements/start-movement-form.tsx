// Start a controlled movement: prisoners (searched and ticked), destination (a place prisoners go: Positive zones that
// alarm), due by with quick choices (+15, +30, +60 min), optional zones on the way, escort, and the reason a closed
// destination needs. The server's 400 or 409 names the field; it is shown beside that field.
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MOVEMENT_QUICK_DUE_MINUTES, type MovementInput } from '@prison/shared/movement';
import type { PrisonerListResponse } from '@prison/shared/prisoner';
import { api, errorMessage } from '../../lib/api-client';
import { plainServerMessage } from '../../lib/field-messages';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { usePrisonerSearch } from '../../lib/prisoner-search';
import { MOVEMENTS_KEY, useStaff } from './api';
import { useGeofences } from '../../lib/geofence-list';

const SERVER_FIELDS = ['prisoner_ids', 'destination_geofence_id', 'due_by', 'escort_staff_id', 'via_geofence_ids', 'reason'] as const;
type ServerField = (typeof SERVER_FIELDS)[number];
type Chosen = PrisonerListResponse['prisoners'][number];

/** A datetime-local value (the browser's local time) this many minutes from now. */
function localInput(minutes: number): string {
  const d = new Date(Date.now() + minutes * 60_000);
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function StartMovementForm() {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const listId = useId();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [destination, setDestination] = useState('');
  const [dueBy, setDueBy] = useState(() => localInput(30));
  const [escort, setEscort] = useState('');
  const [via, setVia] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<ServerField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const found = usePrisonerSearch(q, { limit: 10 });
  const geofences = useGeofences();
  const staff = useStaff();
  // Places prisoners go: Positive zones that alarm (not a perimeter or curfew, not an Informational zone).
  const places = (geofences.data ?? []).filter((g) => g.type === 'Positive' && g.alert_type !== 'Informational');
  // On the way: any zone but the destination and one that keeps everyone in (the perimeter).
  const onTheWay = (geofences.data ?? []).filter((g) => g.geofence_id !== destination && !(g.type === 'Negative' && g.applies_to === null));
  const isChosen = (id: number) => chosen.some((p) => p.prisoner_id === id);
  const toggle = (p: Chosen) => setChosen((list) => (isChosen(p.prisoner_id) ? list.filter((c) => c.prisoner_id !== p.prisoner_id) : [...list, p]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    if (chosen.length === 0) next.prisoner_ids = 'Choose at least one prisoner.';
    if (!destination) next.destination_geofence_id = 'Choose the destination.';
    const due = new Date(dueBy);
    if (Number.isNaN(due.getTime()) || due.getTime() <= Date.now()) next.due_by = 'Due by must be later than now.';
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      const input: MovementInput = {
        prisoner_ids: chosen.map((p) => p.prisoner_id),
        destination_geofence_id: destination,
        due_by: due.toISOString(),
        escort_staff_id: escort ? Number(escort) : null,
        ...(via.length > 0 && { via_geofence_ids: via.filter((id) => id !== destination) }),
        ...(reason.trim() && { reason: reason.trim() }),
      };
      await api.post('/movements', input);
      notify('Movement started.');
      setChosen([]);
      setReason('');
      setVia([]);
      await queryClient.invalidateQueries({ queryKey: MOVEMENTS_KEY });
    } catch (failure) {
      const plain = plainServerMessage(errorMessage(failure, 'Failed to start the movement. Please try again.'), SERVER_FIELDS);
      const field = plain.field as ServerField | undefined;
      if (field) setErrors({ [field]: plain.message });
      else setFormError(plain.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Start a movement" className="mb-6 flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">Start a movement</h2>
      <div className="grid gap-3 md:grid-cols-2">
        <div className="flex flex-col gap-2">
          <TextField label="Search prisoners" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          <fieldset aria-describedby={errors.prisoner_ids ? `${listId}-error` : undefined}>
            <legend className="text-sm font-medium text-slate-700">Prisoners ({chosen.length} chosen)</legend>
            {found.isPending ? (
              <p className="text-sm text-slate-600">Loading prisoners…</p>
            ) : found.isError ? (
              <p className="text-sm text-red-700">{errorMessage(found.error, 'Failed to fetch prisoners.')}</p>
            ) : (
              <ul className="mt-1 flex max-h-48 flex-col gap-1 overflow-y-auto" data-testid="movement-prisoner-options">
                {[...chosen, ...(found.data ?? []).filter((p) => !isChosen(p.prisoner_id))].map((p) => (
                  <li key={p.prisoner_id}>
                    <label className="flex items-center gap-2 text-sm text-slate-800">
                      <input type="checkbox" checked={isChosen(p.prisoner_id)} onChange={() => toggle(p)} />
                      {p.first_name} {p.last_name} {p.cell_id ? `(${p.cell_id})` : ''}
                    </label>
                  </li>
                ))}
                {(found.data ?? []).length === 0 && chosen.length === 0 && <li className="text-sm text-slate-600">No prisoner matches.</li>}
              </ul>
            )}
            {errors.prisoner_ids && (
              <p id={`${listId}-error`} className="mt-1 text-sm text-red-700" role="alert">
                {errors.prisoner_ids}
              </p>
            )}
          </fieldset>
        </div>
        <div className="flex flex-col gap-3">
          <ChoiceField
            label="Destination"
            value={destination}
            error={errors.destination_geofence_id}
            onChange={setDestination}
            empty={geofences.isPending ? 'Loading geofences…' : geofences.isError ? 'Geofences could not be loaded' : 'Choose a geofence'}
            choices={places.map((g) => ({ value: g.geofence_id, label: g.name }))}
          />
          <TextField label="Due by" type="datetime-local" value={dueBy} error={errors.due_by} onChange={(e) => setDueBy(e.target.value)} />
          <div className="flex flex-wrap gap-2" role="group" aria-label="Quick due by">
            {MOVEMENT_QUICK_DUE_MINUTES.map((minutes) => (
              <Button key={minutes} variant="secondary" className="min-h-11 min-w-16" onClick={() => setDueBy(localInput(minutes))} aria-label={`Due in ${minutes} minutes`}>
                +{minutes} min
              </Button>
            ))}
          </div>
          {onTheWay.length > 0 && (
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Zones on the way (optional)</legend>
              <ul className="mt-1 flex max-h-32 flex-col gap-1 overflow-y-auto">
                {onTheWay.map((g) => (
                  <li key={g.geofence_id}>
                    <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                      <input
                        type="checkbox"
                        checked={via.includes(g.geofence_id)}
                        onChange={() => setVia((list) => (list.includes(g.geofence_id) ? list.filter((id) => id !== g.geofence_id) : [...list, g.geofence_id]))}
                      />
                      {g.name}
                    </label>
                  </li>
                ))}
              </ul>
              {errors.via_geofence_ids && (
                <p className="mt-1 text-sm text-red-700" role="alert">
                  {errors.via_geofence_ids}
                </p>
              )}
            </fieldset>
          )}
          <TextField
            label="Reason (needed when the place is closed at the due time)"
            value={reason}
            maxLength={500}
            error={errors.reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <ChoiceField
            label="Escort (optional)"
            value={escort}
            error={errors.escort_staff_id}
            onChange={setEscort}
            empty="No escort"
            choices={(staff.data ?? []).map((s) => ({ value: String(s.staff_id), label: `${s.first_name} ${s.last_name} (${s.role})` }))}
          />
        </div>
      </div>
      <FormError message={formError} margin="mt-0" />
      <div>
        <Button type="submit" busy={busy}>
          Start movement
        </Button>
      </div>
    </form>
  );
}

/** A labelled select of value/label choices, its error below it. */
function ChoiceField(props: { label: string; value: string; error?: string; empty: string; choices: { value: string; label: string }[]; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none aria-[invalid=true]:border-red-500"
      >
        <option value="">{props.empty}</option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {props.error && (
        <p id={`${id}-error`} className="text-sm text-red-700" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
