// Escort (decision 035): the prisoner's escort in force or planned on the details screen (officer,
// distance, from, until, by whom) with "End escort"; when there is none, a form to start one with a police officer or
// guard. The server watches the distance between both trackers; an escort holds the perimeter back only while that is
// proven (decision 037), so the section says why one is not escorting, and an officer without a tracker needs the
// escort recorded as unmonitored (it then exempts nothing).
import { useMay } from '../../lib/use-may';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { OCCUPYING_STATUSES, STAFF_ROLES } from '@prison/shared/constants';
import {
  ESCORT_DEFAULT_DISTANCE_M,
  ESCORT_MAX_DISTANCE_M,
  ESCORT_MIN_DISTANCE_M,
  type Escort,
  type EscortInput,
} from '@prison/shared/escort';
import type { Prisoner } from '@prison/shared/prisoner';
import type { StaffListResponse, StaffMember } from '@prison/shared/staff';
import { api, errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { fieldLabel, plainServerMessage } from '../../lib/field-messages';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormError, TextField } from '../../components/ui/field';
import { ErrorText, Loading } from '../../components/ui/status';
import { useDevices } from './api';

// Keyed 'escorts': the socket's dataChanged('escorts') refreshes it; the minute refresh notices a passed `until`.
const escortKey = (prisonerId: number) => ['escorts', 'prisoner', prisonerId] as const;
const SERVER_FIELDS = ['staff_id', 'max_distance_m', 'until'] as const;
type ServerField = (typeof SERVER_FIELDS)[number];
/** The form's words for the fields the server names ("staff_id: staff member 9 does not exist" -> "Officer: ..."). */
const FIELD_WORDS: Record<ServerField, string> = { staff_id: 'Officer:', max_distance_m: 'Max distance', until: 'Until' };
const linkClass = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-50';

/** The prisoner's escort not ended and not past its `until` (in force, or planned when `from` is ahead); at most one. */
function useCurrentEscort(prisonerId: number) {
  return useQuery({
    queryKey: escortKey(prisonerId),
    queryFn: async ({ signal }) => {
      const { data } = await api.get<{ data: Escort[] }>(`/escorts?prisoner_id=${prisonerId}`, undefined, signal);
      const now = Date.now();
      return (
        data.find(
          (e) => e.prisoner.prisoner_id === prisonerId && e.ended_at === null && (e.until === null || Date.parse(e.until) > now),
        ) ?? null
      );
    },
    refetchInterval: 60_000,
  });
}

export function EscortSection({ prisoner }: { prisoner: Prisoner }) {
  const current = useCurrentEscort(prisoner.prisoner_id);
  const deviceId = prisoner.tracking_device_id;
  const mayWrite = useMay('escorts.write');

  return (
    <section aria-labelledby="escort-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="escort">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="escort-title" className="text-lg font-semibold text-slate-900">
          Escort
        </h2>
        {deviceId && (
          <Link to={`/live-map?device=${encodeURIComponent(deviceId)}`} className={linkClass}>
            Show on live map
          </Link>
        )}
      </div>
      {current.isPending ? (
        <Loading />
      ) : current.isError ? (
        <ErrorText>{errorMessage(current.error, 'Failed to fetch the escort.')}</ErrorText>
      ) : current.data ? (
        <CurrentEscort escort={current.data} mayEnd={mayWrite} />
      ) : !mayWrite ? (
        <p className="text-sm text-slate-600" data-testid="escort-none">
          No escort.
        </p>
      ) : prisoner.status && (OCCUPYING_STATUSES as readonly string[]).includes(prisoner.status) ? (
        <StartEscortForm prisoner={prisoner} />
      ) : (
        <p className="text-sm text-slate-600" data-testid="escort-not-in-custody">
          Only a prisoner in custody ({OCCUPYING_STATUSES.join(' or ')}) can be escorted.
        </p>
      )}
    </section>
  );
}

function CurrentEscort({ escort, mayEnd }: { escort: Escort; mayEnd: boolean }) {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const officer = `${escort.staff.first_name} ${escort.staff.last_name}`;

  async function end() {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/escorts/${escort.id}/end`);
      notify('Escort ended.');
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['escorts'] });
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to end the escort. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-start justify-between gap-3 text-sm" data-testid={`escort-${escort.id}`}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="font-medium text-slate-600">State</dt>
        <dd className="text-slate-900" data-field="state">
          {escort.active ? 'In force' : 'Planned'}
        </dd>
        {escort.active && (
          <>
            <dt className="font-medium text-slate-600">Escorting</dt>
            <dd data-field="escorting" className={escort.escorting ? 'text-slate-900' : 'font-medium text-amber-800'}>
              {escort.escorting
                ? 'Yes: the perimeter waits while they stay together'
                : `No: ${escort.not_escorting_reason ?? 'not watched'}. The perimeter alerts for this prisoner as usual.`}
            </dd>
          </>
        )}
        <dt className="font-medium text-slate-600">Officer</dt>
        <dd className="text-slate-900" data-field="officer">
          {officer} ({escort.staff.role})
        </dd>
        <dt className="font-medium text-slate-600">Max distance</dt>
        <dd className="text-slate-900" data-field="distance">
          {escort.max_distance_m} m
        </dd>
        <dt className="font-medium text-slate-600">From</dt>
        <dd className="text-slate-900">{formatAlertDateTime(escort.from)}</dd>
        <dt className="font-medium text-slate-600">Until</dt>
        <dd className="text-slate-900">{escort.until ? formatAlertDateTime(escort.until) : 'Until ended'}</dd>
        <dt className="font-medium text-slate-600">Created by</dt>
        <dd className="text-slate-900">
          {escort.created_by} · {formatAlertDateTime(escort.created_at)}
        </dd>
      </dl>
      {mayEnd && (
        <Button size="sm" variant="secondary" onClick={() => setConfirming(true)}>
          End escort
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title="End escort"
        message="End this escort? The prisoner is no longer measured against the officer, and the perimeter alerts apply again."
        subject={`${escort.prisoner.first_name} ${escort.prisoner.last_name} with ${officer}`}
        confirmLabel="End escort"
        busy={busy}
        error={error}
        onConfirm={() => void end()}
        onCancel={() => {
          setConfirming(false);
          setError(null);
        }}
      />
    </div>
  );
}

/** Police officers and guards matching the search, both roles in one list. */
function useOfficers(q: string) {
  return useQuery({
    queryKey: ['staff', 'escort-officers', q],
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(
        STAFF_ROLES.map((role) =>
          api.get<StaffListResponse>(`/staff/getbyRole/${role}`, { q: q || undefined, limit: 10 }, signal).then((r) => r.staffMembers),
        ),
      );
      return lists.flat();
    },
  });
}

function StartEscortForm({ prisoner }: { prisoner: Prisoner }) {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const officerId = useId();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [chosen, setChosen] = useState<StaffMember | null>(null);
  const [distance, setDistance] = useState(String(ESCORT_DEFAULT_DISTANCE_M));
  const [until, setUntil] = useState('');
  const [unmonitored, setUnmonitored] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<ServerField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const officers = useOfficers(q);
  const devices = useDevices(true);
  const found = officers.data ?? [];
  const options = chosen && !found.some((s) => s.staff_id === chosen.staff_id) ? [chosen, ...found] : found;
  const untracked = chosen && devices.data && !devices.data.some((d) => d.staff_id === chosen.staff_id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    const metres = Number(distance);
    if (!chosen) next.staff_id = 'Choose the police officer or guard.';
    else if (untracked && !unmonitored)
      next.staff_id = 'This officer wears no tracker: assign them one, or tick "Unmonitored" to record the escort (it then exempts nothing).';
    if (!Number.isInteger(metres) || metres < ESCORT_MIN_DISTANCE_M || metres > ESCORT_MAX_DISTANCE_M)
      next.max_distance_m = `Max distance must be a whole number of metres from ${ESCORT_MIN_DISTANCE_M} to ${ESCORT_MAX_DISTANCE_M}.`;
    const untilTime = until ? new Date(until) : null;
    if (untilTime && (Number.isNaN(untilTime.getTime()) || untilTime.getTime() <= Date.now()))
      next.until = 'Until must be later than now.';
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0 || !chosen) return;
    setBusy(true);
    try {
      const input: EscortInput = {
        prisoner_id: prisoner.prisoner_id,
        staff_id: chosen.staff_id,
        max_distance_m: metres,
        until: untilTime ? untilTime.toISOString() : null,
        ...(untracked && unmonitored ? { unmonitored: true } : {}),
      };
      await api.post('/escorts', input);
      notify('Escort started.');
      await queryClient.invalidateQueries({ queryKey: ['escorts'] });
    } catch (failure) {
      const text = errorMessage(failure, 'Failed to start the escort. Please try again.');
      const plain = plainServerMessage(text, SERVER_FIELDS);
      const field = plain.field as ServerField | undefined;
      if (field) setErrors({ [field]: plain.message.replace(fieldLabel(field), FIELD_WORDS[field]) });
      else setFormError(plain.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Start an escort" className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold text-slate-900">Start an escort</h3>
      <p className="text-sm text-slate-600">No escort is in force or planned for this prisoner.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Search officer" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <div className="flex flex-col gap-1">
          <label htmlFor={officerId} className="text-sm font-medium text-slate-700">
            Officer
          </label>
          <select
            id={officerId}
            value={chosen?.staff_id ?? ''}
            onChange={(e) => {
              setChosen(options.find((s) => String(s.staff_id) === e.target.value) ?? null);
              // "Unmonitored" is said of one officer: choosing another asks again.
              setUnmonitored(false);
              setErrors(({ staff_id: _dropped, ...rest }) => rest);
            }}
            aria-invalid={errors.staff_id ? true : undefined}
            aria-describedby={errors.staff_id ? `${officerId}-error` : untracked ? `${officerId}-hint` : undefined}
            className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500"
          >
            <option value="">{officers.isPending ? 'Searching...' : 'Select a police officer or guard'}</option>
            {STAFF_ROLES.map((role) => {
              const ofRole = options.filter((s) => s.role === role);
              return ofRole.length === 0 ? null : (
                <optgroup key={role} label={role}>
                  {ofRole.map((s) => (
                    <option key={s.staff_id} value={s.staff_id}>
                      {s.first_name} {s.last_name} · {s.role} · badge {s.badge_number}
                    </option>
                  ))}
                </optgroup>
              );
            })}
          </select>
          {errors.staff_id ? (
            <p id={`${officerId}-error`} className="text-xs text-red-700">
              {errors.staff_id}
            </p>
          ) : untracked ? (
            <p id={`${officerId}-hint`} className="text-xs text-amber-800" data-testid="escort-no-tracker">
              This officer wears no tracker: the escort cannot be watched, so it can only be recorded as unmonitored.
            </p>
          ) : null}
          {untracked && (
            <label className="mt-1 flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={unmonitored}
                onChange={(e) => {
                  setUnmonitored(e.target.checked);
                  setErrors(({ staff_id: _dropped, ...rest }) => rest);
                }}
              />
              Unmonitored: record only (the perimeter still alerts for this prisoner)
            </label>
          )}
        </div>
        <TextField
          label="Max distance (metres)"
          type="number"
          inputMode="numeric"
          min={ESCORT_MIN_DISTANCE_M}
          max={ESCORT_MAX_DISTANCE_M}
          step={1}
          value={distance}
          onChange={(e) => setDistance(e.target.value)}
          error={errors.max_distance_m}
          hint={`From ${ESCORT_MIN_DISTANCE_M} to ${ESCORT_MAX_DISTANCE_M} m`}
        />
        <TextField
          label="Until (optional)"
          type="datetime-local"
          value={until}
          onChange={(e) => setUntil(e.target.value)}
          error={errors.until}
          hint="Empty: until ended"
        />
      </div>
      <FormError message={formError} margin="mt-1" />
      <div className="flex justify-end">
        <Button type="submit" busy={busy}>
          Start
        </Button>
      </div>
    </form>
  );
}
