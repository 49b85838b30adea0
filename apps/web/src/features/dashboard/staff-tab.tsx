// The Police and Guards tabs (docs/CLIENT-CONTRACT.md): one component, two roles. Members with history are retired by
// Delete (decision 042): "Retired" lists them, with Restore.
import { useMay } from '../../lib/use-may';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEPARTMENTS, GUARD_RANKS, type Department, type StaffRole } from '@prison/shared/constants';
import type { StaffInput, StaffMember } from '@prison/shared/staff';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { Pagination } from '../../components/ui/pagination';
import { RowMenu } from '../../components/ui/row-menu';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { Button } from '../../components/ui/button';
import { createStaff, deleteStaff, restoreStaff, updateStaff, useStaffList } from './api';
import { FilterPanel, ListToolbar, TableShell, tdClass, thClass } from './list-toolbar';
import { stickyEndCell, stickyEndHeadCell } from '../../components/ui/table-classes';
import { StaffFormDialog } from './staff-form-dialog';

interface Filters {
  firstName: string;
  lastName: string;
  rank: string;
  department: '' | Department;
  badgeNumber: string;
}
const noFilters: Filters = { firstName: '', lastName: '', rank: '', department: '', badgeNumber: '' };

const texts = {
  Police: {
    search: 'Search police officer',
    create: 'Create New Police Officer',
    edit: 'Edit Officer Details',
    noun: 'police officers',
  },
  Guard: {
    search: 'Search guard',
    create: 'Create New Guard',
    edit: 'Edit Guard Details',
    noun: 'guards',
  },
} as const;

export function StaffTab({ role }: { role: StaffRole }) {
  const mayWrite = useMay('records.write');
  const mayDelete = useMay('records.delete');
  const t = texts[role];
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [deleting, setDeleting] = useState<StaffMember | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [badgeError, setBadgeError] = useState<string | undefined>();
  const [retired, setRetired] = useState(false);

  const list = useStaffList(role, {
    archived: retired ? 'true' : undefined,
    page,
    q: q || undefined,
    firstName: applied.firstName || undefined,
    lastName: applied.lastName || undefined,
    rank: applied.rank || undefined,
    department: applied.department || undefined,
    badgeNumber: applied.badgeNumber || undefined,
  });
  const totalPages = list.data?.totalPages ?? 1;
  if (list.data && page > totalPages) setPage(totalPages);

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

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteStaff(deleting.staff_id);
      setDeleting(null);
      notify('Staff member deleted successfully.');
      refresh();
    } catch (error) {
      setDeleteError(errorMessage(error, 'Failed to delete staff member. Please try again.'));
    } finally {
      setDeleteBusy(false);
    }
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

  function applyFilters() {
    if (!/^\d*$/.test(draft.badgeNumber.trim())) {
      setBadgeError('Badge number must be digits');
      return;
    }
    setBadgeError(undefined);
    setApplied({
      ...draft,
      firstName: draft.firstName.trim(),
      lastName: draft.lastName.trim(),
      rank: draft.rank.trim(),
      badgeNumber: draft.badgeNumber.trim(),
    });
    setPage(1);
  }

  const filtersActive = Object.values(applied).some((value) => value !== '');
  const panelId = `${role.toLowerCase()}-filters`;

  return (
    <div>
      <ListToolbar
        searchPlaceholder={t.search}
        search={search}
        onSearchChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
        filtersOpen={filtersOpen}
        onToggleFilters={() => setFiltersOpen((open) => !open)}
        filtersActive={filtersActive}
        createLabel={t.create}
        onCreate={mayWrite ? () => setCreating(true) : undefined}
        filterPanelId={panelId}
      />
      <div className="mt-3 flex items-center gap-3">
        <Button
          variant={retired ? 'primary' : 'secondary'}
          aria-pressed={retired}
          onClick={() => {
            setRetired((on) => !on);
            setPage(1);
          }}
        >
          Retired
        </Button>
        {retired && <p className="text-sm text-slate-600">Deleted members with history, kept for their escorts.</p>}
      </div>
      {filtersOpen && (
        <FilterPanel
          id={panelId}
          onApply={applyFilters}
          onClear={() => {
            setDraft(noFilters);
            setApplied(noFilters);
            setBadgeError(undefined);
            setPage(1);
          }}
        >
          <TextField
            label="First name"
            value={draft.firstName}
            onChange={(e) => setDraft({ ...draft, firstName: e.target.value })}
          />
          <TextField
            label="Last name"
            value={draft.lastName}
            onChange={(e) => setDraft({ ...draft, lastName: e.target.value })}
          />
          {role === 'Police' ? (
            <>
              <TextField
                label="Rank"
                value={draft.rank}
                onChange={(e) => setDraft({ ...draft, rank: e.target.value })}
              />
              <SelectField
                label="Department"
                options={DEPARTMENTS}
                placeholder="All"
                value={draft.department}
                onChange={(e) => setDraft({ ...draft, department: e.target.value as Filters['department'] })}
              />
            </>
          ) : (
            <>
              <TextField
                label="Badge number"
                inputMode="numeric"
                value={draft.badgeNumber}
                error={badgeError}
                onChange={(e) => setDraft({ ...draft, badgeNumber: e.target.value })}
              />
              {/* A guard's "role" in this filter is its rank (docs/CLIENT-CONTRACT.md). */}
              <SelectField
                label="Role"
                options={GUARD_RANKS}
                placeholder="All"
                value={draft.rank}
                onChange={(e) => setDraft({ ...draft, rank: e.target.value })}
              />
            </>
          )}
        </FilterPanel>
      )}

      {list.isPending ? (
        <Loading text={`Loading ${t.noun}...`} />
      ) : list.isError ? (
        <ErrorText>Failed to fetch police data.</ErrorText>
      ) : list.data.staffMembers.length === 0 ? (
        <EmptyState>
          {retired
            ? `No retired ${t.noun}.`
            : q || filtersActive
              ? `No ${t.noun} match the search and filters.`
              : `No ${t.noun} yet.`}
        </EmptyState>
      ) : (
        <>
          <TableShell>
            <table
              className="min-w-full divide-y divide-slate-200"
              aria-label={role === 'Police' ? 'Police officers' : 'Guards'}
            >
              <thead className="bg-slate-50">
                <tr>
                  {['ID', 'First Name', 'Last Name', 'Role', 'Badge Number', 'Rank', 'Department', 'Contact-info'].map(
                    (h) => (
                      <th key={h} scope="col" className={thClass}>
                        {h}
                      </th>
                    ),
                  )}
                  <th scope="col" className={`${thClass} ${stickyEndHeadCell}`}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.data.staffMembers.map((s) => (
                  <tr key={s.staff_id} className="hover:bg-slate-50">
                    <td className={tdClass}>{s.staff_id}</td>
                    <td className={tdClass}>{s.first_name}</td>
                    <td className={tdClass}>{s.last_name}</td>
                    <td className={tdClass}>{s.role}</td>
                    <td className={tdClass}>{s.badge_number}</td>
                    <td className={tdClass}>{s.rank ?? '—'}</td>
                    <td className={tdClass}>{s.department ?? '—'}</td>
                    <td className={tdClass}>{s.contact_info ?? '—'}</td>
                    <td className={`${tdClass} ${stickyEndCell} text-right`}>
                      <RowMenu
                        label={`Actions for ${s.role === 'Police' ? 'officer' : 'guard'} ${s.staff_id} ${s.first_name} ${s.last_name}`}
                        actions={
                          retired
                            ? mayWrite
                              ? [{ label: 'Restore', onSelect: () => void restore(s) }]
                              : []
                            : [
                                ...(mayWrite ? [{ label: 'Edit', onSelect: () => setEditing(s) }] : []),
                                ...(mayDelete
                                  ? [
                                      {
                                        label: 'Delete',
                                        danger: true,
                                        onSelect: () => {
                                          setDeleteError(null);
                                          setDeleting(s);
                                        },
                                      },
                                    ]
                                  : []),
                              ]
                        }
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableShell>
          <Pagination
            page={Math.min(page, totalPages)}
            totalPages={totalPages}
            onPageChange={setPage}
            label={role === 'Police' ? 'Police officer pages' : 'Guard pages'}
          />
        </>
      )}

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
      <ConfirmDialog
        open={deleting !== null}
        title="Confirm Delete"
        message="Are you sure you want to delete this staff member?"
        subject={
          deleting && (
            <span className="text-sm font-normal text-slate-700">
              {deleting.first_name} {deleting.last_name} (badge {deleting.badge_number}). A member with escort history
              is retired, not erased: their escorts keep their name.
            </span>
          )
        }
        confirmLabel="Confirm"
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
