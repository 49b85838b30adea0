// "Link more" on an incident page: a prisoner or a staff member found by name, or an alert by its number, linked to
// the incident (POST /incidents/{id}/links); the page shows the answer.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { STAFF_ROLES } from '@prison/shared/constants';
import type { StaffListResponse } from '@prison/shared/staff';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { api, errorMessage } from '../../lib/api-client';
import { usePrisonerSearch } from '../../lib/prisoner-search';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useLinkToIncident } from './api';

const selectClass = 'w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';

export function IncidentLinksForm({ incidentId }: { incidentId: number }) {
  const link = useLinkToIncident(incidentId);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [prisonerId, setPrisonerId] = useState('');
  const [staffId, setStaffId] = useState('');
  const [alertId, setAlertId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const prisoners = usePrisonerSearch(q);
  const staff = useQuery({
    queryKey: ['staff', 'incident-search', q],
    queryFn: async ({ signal }) =>
      (await Promise.all(STAFF_ROLES.map((role) => api.get<StaffListResponse>(`/staff/getbyRole/${role}`, { q: q || undefined, limit: 8 }, signal)))).flatMap(
        (r) => r.staffMembers,
      ),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const alert = alertId.trim();
    if (!prisonerId && !staffId && !alert) return setError('Choose a prisoner or a staff member, or enter an alert number.');
    if (alert && !/^\d{1,9}$/.test(alert)) return setError('The alert number is the number shown as #12 on the alerts screen.');
    setError(null);
    link.mutate(
      {
        ...(prisonerId ? { prisoner_ids: [Number(prisonerId)] } : {}),
        ...(staffId ? { staff_ids: [Number(staffId)] } : {}),
        ...(alert ? { alert_ids: [Number(alert)] } : {}),
      },
      {
        onSuccess: () => {
          setPrisonerId('');
          setStaffId('');
          setAlertId('');
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Link more" className="mt-3 flex flex-col gap-2 border-t border-slate-100 pt-3">
      <h3 className="font-medium">Link more</h3>
      <TextField label="Search people" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="flex flex-col gap-1 font-medium text-slate-700">
          Prisoner
          <select value={prisonerId} onChange={(event) => setPrisonerId(event.target.value)} className={selectClass}>
            <option value="">{prisoners.isPending ? 'Searching...' : 'None'}</option>
            {(prisoners.data ?? []).map((p) => (
              <option key={p.prisoner_id} value={p.prisoner_id}>
                {p.first_name} {p.last_name} · #{p.prisoner_id}
                {p.cell_id ? ` · cell ${p.cell_id}` : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 font-medium text-slate-700">
          Staff member
          <select value={staffId} onChange={(event) => setStaffId(event.target.value)} className={selectClass}>
            <option value="">{staff.isPending ? 'Searching...' : 'None'}</option>
            {(staff.data ?? []).map((s) => (
              <option key={s.staff_id} value={s.staff_id}>
                {s.first_name} {s.last_name} · {s.role} · badge {s.badge_number}
              </option>
            ))}
          </select>
        </label>
      </div>
      <TextField label="Alert number" inputMode="numeric" value={alertId} onChange={(event) => setAlertId(event.target.value)} hint="As shown on the alerts screen, without the #" />
      <FormError message={error ?? (link.isError ? errorMessage(link.error, 'The links could not be added.') : null)} />
      <div>
        <Button type="submit" size="sm" busy={link.isPending}>
          Link
        </Button>
      </div>
    </form>
  );
}
