// The Prisoners tab (docs/CLIENT-CONTRACT.md): search, filters, the table with its row menu, pagination, create and delete.
// Delete archives (decision 042): "Archived records" lists those, with Restore.
import { useState } from 'react';
import { useMay } from '../../lib/use-may';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PRISONER_STATUSES, type PrisonerStatus } from '@prison/shared/constants';
import type { Prisoner, PrisonerInput } from '@prison/shared/prisoner';
import { errorMessage } from '../../lib/api-client';
import { formatLongDate } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { Pagination } from '../../components/ui/pagination';
import { PrisonerFormDialog } from '../../components/ui/prisoner-form-dialog';
import { PrisonerIdentity } from '../../components/prisoner-identity';
import { RowMenu } from '../../components/ui/row-menu';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { StatusBadge } from '../../components/ui/status-badge';
import { Button } from '../../components/ui/button';
import { createPrisoner, deletePrisoner, registerCellOccupant, restorePrisoner, usePrisonerList } from './api';
import { PrisonerHoldingsSummary } from './prisoner-holdings';
import { FilterPanel, ListToolbar, TableShell, tdClass, thClass } from './list-toolbar';
import { stickyEndCell, stickyEndHeadCell } from '../../components/ui/table-classes';

interface Filters {
  first_name: string;
  last_name: string;
  status: '' | PrisonerStatus;
}
const noFilters: Filters = { first_name: '', last_name: '', status: '' };

/** Which prisoner a delete would remove: the name (records made before names were required may have none) and id. */
function prisonerLabel(prisoner: Prisoner): string {
  const name = `${prisoner.first_name} ${prisoner.last_name}`.trim() || 'No name';
  return `${name} (ID ${prisoner.prisoner_id})`;
}

export function PrisonersTab() {
  const mayWrite = useMay('records.write');
  const mayDelete = useMay('records.delete');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Prisoner | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [archived, setArchived] = useState(false);

  const list = usePrisonerList({
    archived: archived ? 'true' : undefined,
    page,
    q: q || undefined,
    first_name: applied.first_name || undefined,
    last_name: applied.last_name || undefined,
    status: applied.status || undefined,
  });
  const totalPages = list.data?.totalPages ?? 1;
  // After a delete or a narrower search the page may no longer exist.
  const shownPage = Math.min(page, totalPages);
  if (list.data && page > totalPages) setPage(totalPages);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['prisoners'] });
    void queryClient.invalidateQueries({ queryKey: ['cells'] });
  };

  async function create(input: PrisonerInput) {
    await createPrisoner(input);
    notify('Prisoner created successfully!');
    setCreating(false);
    refresh();
    if (input.cell_id) {
      try {
        await registerCellOccupant(input.cell_id);
        notify('Cell occupant updated successfully!');
      } catch (error) {
        console.error('cell occupant update failed', error); // logged only (docs/CLIENT-CONTRACT.md)
      }
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deletePrisoner(deleting.prisoner_id);
      setDeleting(null);
      notify('Prisoner deleted successfully.');
      refresh();
    } catch (error) {
      setDeleteError(errorMessage(error, 'Failed to delete prisoner. Please try again.'));
    } finally {
      setDeleteBusy(false);
    }
  }

  // A refused restore says why in the page, with the way out (decision 102): a toast would be gone before it is read.
  const [restoreError, setRestoreError] = useState<string | null>(null);
  async function restore(prisoner: Prisoner) {
    setRestoreError(null);
    try {
      await restorePrisoner(prisoner.prisoner_id);
      notify(`${prisonerLabel(prisoner)} restored.`);
      refresh();
    } catch (error) {
      setRestoreError(`${prisonerLabel(prisoner)} was not restored: ${errorMessage(error, 'Failed to restore the prisoner. Please try again.')}`);
    }
  }

  const filtersActive = applied.first_name !== '' || applied.last_name !== '' || applied.status !== '';

  return (
    <div>
      <ListToolbar
        searchPlaceholder="Search prisoner"
        search={search}
        onSearchChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
        filtersOpen={filtersOpen}
        onToggleFilters={() => setFiltersOpen((open) => !open)}
        filtersActive={filtersActive}
        createLabel="Create New Prisoner"
        onCreate={mayWrite ? () => setCreating(true) : undefined}
        filterPanelId="prisoner-filters"
      />
      <div className="mt-3 flex items-center gap-3">
        <Button
          variant={archived ? 'primary' : 'secondary'}
          aria-pressed={archived}
          onClick={() => {
            setArchived((on) => !on);
            setPage(1);
          }}
        >
          Archived records
        </Button>
        {archived && (
          <p className="text-sm text-slate-600">Deleted prisoners, kept with their history. Restore brings one back.</p>
        )}
      </div>
      {archived && restoreError && (
        <p role="alert" className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-800" data-testid="restore-error">
          {restoreError}
        </p>
      )}
      {filtersOpen && (
        <FilterPanel
          id="prisoner-filters"
          onApply={() => {
            setApplied({
              first_name: draft.first_name.trim(),
              last_name: draft.last_name.trim(),
              status: draft.status,
            });
            setPage(1);
          }}
          onClear={() => {
            setDraft(noFilters);
            setApplied(noFilters);
            setPage(1);
          }}
        >
          <TextField
            label="First name"
            value={draft.first_name}
            onChange={(e) => setDraft({ ...draft, first_name: e.target.value })}
          />
          <TextField
            label="Last name"
            value={draft.last_name}
            onChange={(e) => setDraft({ ...draft, last_name: e.target.value })}
          />
          <SelectField
            label="Status"
            options={PRISONER_STATUSES}
            placeholder="All"
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.target.value as Filters['status'] })}
          />
        </FilterPanel>
      )}

      {list.isPending ? (
        <Loading text="Loading prisoners..." />
      ) : list.isError ? (
        <ErrorText>{errorMessage(list.error, 'Failed to fetch prisoners.')}</ErrorText>
      ) : list.data.prisoners.length === 0 ? (
        <EmptyState>
          {archived
            ? 'No archived prisoners.'
            : q || filtersActive
              ? 'No prisoners match the search and filters.'
              : 'No prisoners yet.'}
        </EmptyState>
      ) : (
        <>
          <TableShell>
            <table
              className="min-w-full divide-y divide-slate-200"
              aria-label="Prisoners"
              aria-busy={list.isFetching || undefined}
            >
              <thead className="bg-slate-50">
                <tr>
                  {[
                    'ID',
                    'Prison Number',
                    'First Name',
                    'Last Name',
                    'Date of Birth',
                    'Gender',
                    'National ID',
                    'Entry Date',
                    'Status',
                  ].map((h) => (
                    <th key={h} scope="col" className={thClass}>
                      {h}
                    </th>
                  ))}
                  <th scope="col" className={`${thClass} ${stickyEndHeadCell}`}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.data.prisoners.map((p) => (
                  <tr key={p.prisoner_id} className="hover:bg-slate-50">
                    <td className={tdClass}>{p.prisoner_id}</td>
                    <td className={tdClass}>
                      <PrisonerIdentity prisoner={p} showName={false} />
                    </td>
                    <td className={tdClass}>{p.first_name}</td>
                    <td className={tdClass}>{p.last_name}</td>
                    <td className={tdClass}>{formatLongDate(p.date_of_birth) ?? '—'}</td>
                    <td className={tdClass}>{p.gender ?? '—'}</td>
                    <td className={tdClass}>{p.national_id ?? '—'}</td>
                    <td className={tdClass}>{formatLongDate(p.entry_date) ?? '—'}</td>
                    <td className={tdClass}>
                      <StatusBadge status={p.status} />
                    </td>
                    <td className={`${tdClass} ${stickyEndCell} text-right`}>
                      <RowMenu
                        label={`Actions for prisoner ${p.prisoner_id} ${p.first_name} ${p.last_name}`}
                        actions={
                          archived
                            ? [
                                ...(mayWrite ? [{ label: 'Restore', onSelect: () => void restore(p) }] : []),
                                {
                                  label: 'More Details',
                                  onSelect: () => navigate(`/prisoner-details/${p.prisoner_id}`),
                                },
                              ]
                            : [
                                // Edit opens the details screen with its update dialog already open.
                                ...(mayWrite
                                  ? [
                                      {
                                        label: 'Edit',
                                        onSelect: () => navigate(`/prisoner-details/${p.prisoner_id}?edit=1`),
                                      },
                                    ]
                                  : []),
                                ...(mayDelete
                                  ? [
                                      {
                                        label: 'Delete',
                                        danger: true,
                                        onSelect: () => {
                                          setDeleteError(null);
                                          setDeleting(p);
                                        },
                                      },
                                    ]
                                  : []),
                                {
                                  label: 'More Details',
                                  onSelect: () => navigate(`/prisoner-details/${p.prisoner_id}`),
                                },
                              ]
                        }
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableShell>
          <Pagination page={shownPage} totalPages={totalPages} onPageChange={setPage} label="Prisoner pages" />
        </>
      )}

      <PrisonerFormDialog
        open={creating}
        onOpenChange={setCreating}
        title="Create New Prisoner"
        mode="create"
        submitLabel="Create"
        onSubmit={create}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete prisoner"
        message="Are you sure you want to delete this prisoner?"
        subject={
          deleting && <PrisonerHoldingsSummary prisonerId={deleting.prisoner_id} label={prisonerLabel(deleting)} />
        }
        confirmLabel="Delete"
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
      />
    </div>
  );
}
