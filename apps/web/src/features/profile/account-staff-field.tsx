// The police or guard record an account belongs to (decision 100): its tracker places the person's duress alarm and
// verifies his observation checks (decision 063). One choice among the staff records, or none.
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { STAFF_ROLES } from '@prison/shared/constants';
import type { StaffListResponse } from '@prison/shared/staff';
import { api, errorMessage } from '../../lib/api-client';
import { ErrorText, Loading } from '../../components/ui/status';

function useStaffRecords() {
  return useQuery({
    queryKey: ['staff', 'account-links'],
    queryFn: async ({ signal }) =>
      (await Promise.all(STAFF_ROLES.map((role) => api.get<StaffListResponse>(`/staff/getbyRole/${role}`, { limit: 100 }, signal).then((r) => r.staffMembers)))).flat(),
  });
}

export function AccountStaffField({ value, onChange }: { value: number | null; onChange(next: number | null): void }) {
  const id = useId();
  const records = useStaffRecords();
  if (records.isPending) return <Loading text="Loading staff records..." />;
  if (records.isError) return <ErrorText>{errorMessage(records.error, 'Failed to fetch the staff records.')}</ErrorText>;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        Staff record
      </label>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        className="min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      >
        <option value="">None</option>
        {records.data.map((member) => (
          <option key={member.staff_id} value={member.staff_id}>
            {member.role}: {member.first_name} {member.last_name} (badge {member.badge_number})
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        The person using this account: his tracker says where he is when he presses Need assistance.
      </p>
    </div>
  );
}
