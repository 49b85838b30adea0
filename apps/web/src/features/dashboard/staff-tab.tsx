// The Police and Guards tabs (docs/CLIENT-CONTRACT.md): one component, two roles. Members with history are retired by
// Delete (decision 042): "Retired" lists them, with Restore.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEPARTMENTS, GUARD_RANKS, type Department, type StaffRole } from '@prison/shared/constants';
import type { StaffInput, StaffMember } from '@prison/shared/staff';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { SelectField, TextField } from '../../components/ui/field';
import { createStaff, deleteStaff, restoreStaff, updateStaff, useStaffList } from './api';
import { RecordList, type RecordColumn, type RecordListQuery, type RecordPage } from './record-list';
import { StaffFormDialog } from './staff-form-dialog';

// A type, not an interface: the record list wants filters it can index by field.
type Filters = {
  firstName: string;
  lastName: string;
  rank: string;
  department: '' | Department;
  badgeNumber: string;
};
const noFilters: Filters = { firstName: '', lastName: '', rank: '', department: '', badgeNumber: '' };

const texts = {
  Police: {
    search: 'Search police officer',
    create: 'Create New Police Officer',
    edit: 'Edit Officer Details',
    noun: 'police officers',
    tableLabel: 'Police officers',
    paginationLabel: 'Police officer pages',
  },
  Guard: {
    search: 'Search guard',
    create: 'Create New Guard',
    edit: 'Edit Guard Details',
    noun: 'guards',
    tableLabel: 'Guards',
    paginationLabel: 'Guard pages',
  },
} as const;

const columns: RecordColumn<StaffMember>[] = [
  { header: 'ID', cell: (s) => s.staff_id },
  { header: 'First Name', cell: (s) => s.first_name },
  { header: 'Last Name', cell: (s) => s.last_name },
  { header: 'Role', cell: (s) => s.role },
  { header: 'Badge Number', cell: (s) => s.badge_number },
  { header: 'Rank', cell: (s) => s.rank ?? '—' },
  { header: 'Department', cell: (s) => s.department ?? '—' },
  { header: 'Contact-info', cell: (s) => s.contact_info ?? '—' },
];

function applyFilters(draft: Filters) {
  if (!/^\d*$/.test(draft.badgeNumber.trim())) return { error: 'Badge number must be digits' };
  return {
    filters: {
      ...draft,
      firstName: draft.firstName.trim(),
      lastName: draft.lastName.trim(),
      rank: draft.rank.trim(),
      badgeNumber: draft.badgeNumber.trim(),
    },
  };
}

export function StaffTab({ role }: { role: StaffRole }) {
  const t = texts[role];
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);

  function useStaffRecords(query: RecordListQuery<Filters>): RecordPage<StaffMember> {
    const list = useStaffList(role, query);
    return { ...list, rows: list.data?.staffMembers, totalPages: list.data?.totalPages };
  }

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['staff'] });

  async function create(input: StaffInput) {
    await createStaff(input);
    setCreating(false);
    notify(`${input.role === 'Police' ? 'Police officer' : 'Guard'} created successfully!`);
    refresh();
  }

  async function update(input: StaffInput) {
    if (!editing) return;
    await updateStaff(editing.staff_id, input);
    setEditing(null);
    notify('Staff member updated successfully.');
    refresh();
  }

  async function restore(member: StaffMember) {
    try {
      await restoreStaff(member.staff_id);
      notify(`${member.first_name} ${member.last_name} restored.`);
      refresh();
    } catch (error) {
      notify(errorMessage(error, 'Failed to restore the staff member. Please try again.'), 'error');
    }
  }

  return (
    <RecordList
      useRecords={useStaffRecords}
      rowKey={(s) => s.staff_id}
      columns={columns}
      noFilters={noFilters}
      applyFilters={applyFilters}
      filterFields={(bind, badgeError) => (
        <>
          <TextField label="First name" {...bind('firstName')} />
          <TextField label="Last name" {...bind('lastName')} />
          {role === 'Police' ? (
            <>
              <TextField label="Rank" {...bind('rank')} />
              <SelectField label="Department" options={DEPARTMENTS} placeholder="All" {...bind('department')} />
            </>
          ) : (
            <>
              <TextField label="Badge number" inputMode="numeric" error={badgeError} {...bind('badgeNumber')} />
              {/* A guard's "role" in this filter is its rank (docs/CLIENT-CONTRACT.md). */}
              <SelectField label="Role" options={GUARD_RANKS} placeholder="All" {...bind('rank')} />
            </>
          )}
        </>
      )}
      texts={{
        search: t.search,
        create: t.create,
        filterPanelId: `${role.toLowerCase()}-filters`,
        archiveToggle: 'Retired',
        archiveNote: 'Deleted members with history, kept for their escorts.',
        tableLabel: t.tableLabel,
        paginationLabel: t.paginationLabel,
        loading: `Loading ${t.noun}...`,
        fetchFailed: () => 'Failed to fetch police data.',
        emptyArchived: `No retired ${t.noun}.`,
        emptyFiltered: `No ${t.noun} match the search and filters.`,
        empty: `No ${t.noun} yet.`,
        rowMenu: (s) =>
          `Actions for ${s.role === 'Police' ? 'officer' : 'guard'} ${s.staff_id} ${s.first_name} ${s.last_name}`,
        deleteTitle: 'Confirm Delete',
        deleteMessage: 'Are you sure you want to delete this staff member?',
        deleteConfirm: 'Confirm',
        deleted: 'Staff member deleted successfully.',
        deleteFailed: 'Failed to delete staff member. Please try again.',
      }}
      deleteSubject={(s) => (
        <span className="text-sm font-normal text-slate-700">
          {s.first_name} {s.last_name} (badge {s.badge_number}). A member with escort history is retired, not erased:
          their escorts keep their name.
        </span>
      )}
      remove={(s) => deleteStaff(s.staff_id)}
      restore={(s) => void restore(s)}
      onCreate={() => setCreating(true)}
      onEdit={(s) => setEditing(s)}
      refresh={refresh}
    >
      <StaffFormDialog
        open={creating}
        onOpenChange={setCreating}
        title={t.create}
        role={role}
        submitLabel="Create"
        failureText="Failed to create staff. Please check your input."
        onSubmit={create}
      />
      <StaffFormDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={t.edit}
        role={role}
        member={editing}
        submitLabel="Save"
        failureText="Failed to update staff. Please check your input."
        onSubmit={update}
      />
    </RecordList>
  );
}
