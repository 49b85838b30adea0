// One record list for the Prisoners, Police and Guards tabs: search, filters, the archive toggle, the table with its
// row menu, pagination and the delete confirmation. Each tab brings its columns, filter fields, actions and texts.
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMay } from '../../lib/use-may';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Pagination } from '../../components/ui/pagination';
import { RowMenu, type RowMenuAction } from '../../components/ui/row-menu';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { Button } from '../../components/ui/button';
import { stickyEndCell, stickyEndHeadCell } from '../../components/ui/table-classes';
import { FilterPanel, ListToolbar, TableShell, tdClass, thClass } from './list-toolbar';

/** Filters are text fields and selects: '' means "any". */
export type RecordFilters = Record<string, string>;

/** What the list asks its tab to fetch, in the list call's own words: a filter left empty is not sent. */
export type RecordListQuery<F extends RecordFilters> = {
  archived?: 'true';
  page: number;
  q?: string;
} & { [K in keyof F]?: Exclude<F[K], ''> };

function listQuery<F extends RecordFilters>(archived: boolean, page: number, q: string, filters: F) {
  const given = Object.entries(filters).filter(([, value]) => value !== '');
  return {
    archived: archived ? 'true' : undefined,
    page,
    q: q || undefined,
    ...Object.fromEntries(given),
  } as RecordListQuery<F>;
}

/** One page of records as the tab's list hook gives it. */
export interface RecordPage<Row> {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  rows: Row[] | undefined;
  totalPages: number | undefined;
}

/** What a text field or select needs to edit one filter of the draft. */
export interface BoundFilter {
  value: string;
  onChange(event: { target: { value: string } }): void;
}

export interface RecordColumn<Row> {
  header: string;
  cell(row: Row): ReactNode;
}

export interface RecordListProps<Row, F extends RecordFilters> {
  /** Fetches the page; called as a hook on every render. */
  useRecords(query: RecordListQuery<F>): RecordPage<Row>;
  rowKey(row: Row): number;
  columns: RecordColumn<Row>[];
  noFilters: F;
  /** The filter fields: `bind` ties a control to one field of the draft; `error` says why a draft may not be applied. */
  filterFields(bind: (field: keyof F & string) => BoundFilter, error: string | undefined): ReactNode;
  /** The draft as it is applied (trimmed), or why it may not be. */
  applyFilters(draft: F): { filters: F } | { error: string };
  texts: {
    search: string;
    create: string;
    filterPanelId: string;
    archiveToggle: string;
    archiveNote: string;
    tableLabel: string;
    paginationLabel: string;
    loading: string;
    fetchFailed(error: unknown): string;
    emptyArchived: string;
    emptyFiltered: string;
    empty: string;
    rowMenu(row: Row): string;
    deleteTitle: string;
    deleteMessage: string;
    deleteConfirm: string;
    deleted: string;
    deleteFailed: string;
  };
  /** The prisoners' table says it is busy while a page loads; the staff tables never did. */
  busyWhileFetching?: boolean;
  /** Shown under the archive toggle while archived records are listed (a refused restore, say). */
  archivedNotice?: ReactNode;
  deleteSubject(row: Row): ReactNode;
  remove(row: Row): Promise<unknown>;
  restore(row: Row): void;
  onCreate(): void;
  onEdit(row: Row): void;
  /** Actions every row offers after the write and delete ones, archived or not. */
  moreActions?: (row: Row) => RowMenuAction[];
  /** Called after a delete so the tab refetches what depends on the records. */
  refresh(): void;
  /** The tab's create and edit dialogs. */
  children?: ReactNode;
}

export function RecordList<Row, F extends RecordFilters>(props: RecordListProps<Row, F>) {
  const { texts: t } = props;
  const mayWrite = useMay('records.write');
  const mayDelete = useMay('records.delete');
  const { notify } = useToast();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [draft, setDraft] = useState<F>(props.noFilters);
  const [applied, setApplied] = useState<F>(props.noFilters);
  const [filterError, setFilterError] = useState<string | undefined>();
  const [archived, setArchived] = useState(false);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const list = props.useRecords(listQuery(archived, page, q, applied));
  const totalPages = list.totalPages ?? 1;
  // After a delete or a narrower search the page may no longer exist.
  if (list.rows && page > totalPages) setPage(totalPages);

  async function confirmDelete() {
    if (deleting === null) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await props.remove(deleting);
      setDeleting(null);
      notify(t.deleted);
      props.refresh();
    } catch (error) {
      setDeleteError(errorMessage(error, t.deleteFailed));
    } finally {
      setDeleteBusy(false);
    }
  }

  function applyDraft() {
    const result = props.applyFilters(draft);
    if ('error' in result) {
      setFilterError(result.error);
      return;
    }
    setFilterError(undefined);
    setApplied(result.filters);
    setPage(1);
  }

  function rowActions(row: Row): RowMenuAction[] {
    const more = props.moreActions?.(row) ?? [];
    if (archived) return [...(mayWrite ? [{ label: 'Restore', onSelect: () => props.restore(row) }] : []), ...more];
    return [
      ...(mayWrite ? [{ label: 'Edit', onSelect: () => props.onEdit(row) }] : []),
      ...(mayDelete
        ? [
            {
              label: 'Delete',
              danger: true,
              onSelect: () => {
                setDeleteError(null);
                setDeleting(row);
              },
            },
          ]
        : []),
      ...more,
    ];
  }

  const filtersActive = Object.values(applied).some((value) => value !== '');

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
        onCreate={mayWrite ? props.onCreate : undefined}
        filterPanelId={t.filterPanelId}
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
          {t.archiveToggle}
        </Button>
        {archived && <p className="text-sm text-slate-600">{t.archiveNote}</p>}
      </div>
      {archived && props.archivedNotice}
      {filtersOpen && (
        <FilterPanel
          id={t.filterPanelId}
          onApply={applyDraft}
          onClear={() => {
            setDraft(props.noFilters);
            setApplied(props.noFilters);
            setFilterError(undefined);
            setPage(1);
          }}
        >
          {props.filterFields(
            (field) => ({
              value: draft[field] ?? '',
              onChange: (event) => setDraft({ ...draft, [field]: event.target.value }),
            }),
            filterError,
          )}
        </FilterPanel>
      )}

      {list.isPending ? (
        <Loading text={t.loading} />
      ) : list.error || !list.rows ? (
        <ErrorText>{t.fetchFailed(list.error)}</ErrorText>
      ) : list.rows.length === 0 ? (
        <EmptyState>{archived ? t.emptyArchived : q || filtersActive ? t.emptyFiltered : t.empty}</EmptyState>
      ) : (
        <>
          <TableShell>
            <table
              className="min-w-full divide-y divide-slate-200"
              aria-label={t.tableLabel}
              aria-busy={(props.busyWhileFetching && list.isFetching) || undefined}
            >
              <thead className="bg-slate-50">
                <tr>
                  {props.columns.map(({ header }) => (
                    <th key={header} scope="col" className={thClass}>
                      {header}
                    </th>
                  ))}
                  <th scope="col" className={`${thClass} ${stickyEndHeadCell}`}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.rows.map((row) => (
                  <tr key={props.rowKey(row)} className="hover:bg-slate-50">
                    {props.columns.map(({ header, cell }) => (
                      <td key={header} className={tdClass}>
                        {cell(row)}
                      </td>
                    ))}
                    <td className={`${tdClass} ${stickyEndCell} text-right`}>
                      <RowMenu label={t.rowMenu(row)} actions={rowActions(row)} />
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
            label={t.paginationLabel}
          />
        </>
      )}

      {props.children}
      <ConfirmDialog
        open={deleting !== null}
        title={t.deleteTitle}
        message={t.deleteMessage}
        subject={deleting !== null && props.deleteSubject(deleting)}
        confirmLabel={t.deleteConfirm}
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
