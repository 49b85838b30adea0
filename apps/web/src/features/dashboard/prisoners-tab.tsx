// The Prisoners tab (docs/CLIENT-CONTRACT.md): search, filters, the table with its row menu, pagination, create and delete.
// Delete archives (decision 042): "Archived records" lists those, with Restore.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PRISONER_STATUSES, type PrisonerStatus } from '@prison/shared/constants';
import type { Prisoner, PrisonerInput } from '@prison/shared/prisoner';
import { errorMessage } from '../../lib/api-client';
import { formatLongDate } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { SelectField, TextField } from '../../components/ui/field';
import { PrisonerFormDialog } from '../../components/ui/prisoner-form-dialog';
import { PrisonerIdentity } from '../../components/prisoner-identity';
import { StatusBadge } from '../../components/ui/status-badge';
import { createPrisoner, deletePrisoner, registerCellOccupant, restorePrisoner, usePrisonerList } from './api';
import { PrisonerHoldingsSummary } from './prisoner-holdings';
import { RecordList, type RecordColumn, type RecordListQuery, type RecordPage } from './record-list';

// A type, not an interface: the record list wants filters it can index by field.
type Filters = {
  first_name: string;
  last_name: string;
  status: '' | PrisonerStatus;
};
const noFilters: Filters = { first_name: '', last_name: '', status: '' };

/** Which prisoner a delete would remove: the name (records made before names were required may have none) and id. */
function prisonerLabel(prisoner: Prisoner): string {
  const name = `${prisoner.first_name} ${prisoner.last_name}`.trim() || 'No name';
  return `${name} (ID ${prisoner.prisoner_id})`;
}

const columns: RecordColumn<Prisoner>[] = [
  { header: 'ID', cell: (p) => p.prisoner_id },
  { header: 'Prison Number', cell: (p) => <PrisonerIdentity prisoner={p} showName={false} /> },
  { header: 'First Name', cell: (p) => p.first_name },
  { header: 'Last Name', cell: (p) => p.last_name },
  { header: 'Date of Birth', cell: (p) => formatLongDate(p.date_of_birth) ?? '—' },
  { header: 'Gender', cell: (p) => p.gender ?? '—' },
  { header: 'National ID', cell: (p) => p.national_id ?? '—' },
  { header: 'Entry Date', cell: (p) => formatLongDate(p.entry_date) ?? '—' },
  { header: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
];

function usePrisonerRecords(query: RecordListQuery<Filters>): RecordPage<Prisoner> {
  const list = usePrisonerList(query);
  return { ...list, rows: list.data?.prisoners, totalPages: list.data?.totalPages };
}

export function PrisonersTab() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [creating, setCreating] = useState(false);

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

  // A refused restore says why in the page, with the way out (decision 102): a toast would be gone before it is read.
  const [restoreError, setRestoreError] = useState<string | null>(null);
  async function restore(prisoner: Prisoner) {
    setRestoreError(null);
    try {
      await restorePrisoner(prisoner.prisoner_id);
      notify(`${prisonerLabel(prisoner)} restored.`);
      refresh();
    } catch (error) {
      setRestoreError(
        `${prisonerLabel(prisoner)} was not restored: ${errorMessage(error, 'Failed to restore the prisoner. Please try again.')}`,
      );
    }
  }

  return (
    <RecordList
      useRecords={usePrisonerRecords}
      rowKey={(p) => p.prisoner_id}
      columns={columns}
      noFilters={noFilters}
      applyFilters={(draft) => ({
        filters: { first_name: draft.first_name.trim(), last_name: draft.last_name.trim(), status: draft.status },
      })}
      filterFields={(bind) => (
        <>
          <TextField label="First name" {...bind('first_name')} />
          <TextField label="Last name" {...bind('last_name')} />
          <SelectField label="Status" options={PRISONER_STATUSES} placeholder="All" {...bind('status')} />
        </>
      )}
      texts={{
        search: 'Search prisoner',
        create: 'Create New Prisoner',
        filterPanelId: 'prisoner-filters',
        archiveToggle: 'Archived records',
        archiveNote: 'Deleted prisoners, kept with their history. Restore brings one back.',
        tableLabel: 'Prisoners',
        paginationLabel: 'Prisoner pages',
        loading: 'Loading prisoners...',
        fetchFailed: (error) => errorMessage(error, 'Failed to fetch prisoners.'),
        emptyArchived: 'No archived prisoners.',
        emptyFiltered: 'No prisoners match the search and filters.',
        empty: 'No prisoners yet.',
        rowMenu: (p) => `Actions for prisoner ${p.prisoner_id} ${p.first_name} ${p.last_name}`,
        deleteTitle: 'Delete prisoner',
        deleteMessage: 'Are you sure you want to delete this prisoner?',
        deleteConfirm: 'Delete',
        deleted: 'Prisoner deleted successfully.',
        deleteFailed: 'Failed to delete prisoner. Please try again.',
      }}
      busyWhileFetching
      archivedNotice={
        restoreError && (
          <p role="alert" className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-800" data-testid="restore-error">
            {restoreError}
          </p>
        )
      }
      deleteSubject={(p) => <PrisonerHoldingsSummary prisonerId={p.prisoner_id} label={prisonerLabel(p)} />}
      remove={(p) => deletePrisoner(p.prisoner_id)}
      restore={(p) => void restore(p)}
      onCreate={() => setCreating(true)}
      // Edit opens the details screen with its update dialog already open.
      onEdit={(p) => navigate(`/prisoner-details/${p.prisoner_id}?edit=1`)}
      moreActions={(p) => [{ label: 'More Details', onSelect: () => navigate(`/prisoner-details/${p.prisoner_id}`) }]}
      refresh={refresh}
    >
      <PrisonerFormDialog
        open={creating}
        onOpenChange={setCreating}
        title="Create New Prisoner"
        mode="create"
        submitLabel="Create"
        onSubmit={create}
      />
    </RecordList>
  );
}
