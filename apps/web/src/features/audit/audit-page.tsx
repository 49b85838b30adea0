// The audit trail (/audit): who did what to which record, named ("J. Smith (officer)", "prisoner A0012 John Brown"),
// the fields it changed, when (UTC and local) and from where.
// Read-only by design: no API changes or deletes an entry.
import { Fragment, useState, type FormEvent } from 'react';
import { ChevronDown, ChevronRight, Download } from 'lucide-react';
import type { AuditEntry } from '@prison/shared/audit-entry';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { AuditDiff } from './audit-diff';
import { auditExportUrl, useAuditPage, type AuditFilters } from './api';

const utc = (iso: string) =>
  iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');
const local = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
/** A datetime-local value (local time) as an ISO instant. */
const toInstant = (value: string) => (value ? new Date(value).toISOString() : undefined);

const EMPTY_FORM = { entity: '', action: '', actor: '', from: '', to: '' };

function FilterForm({ onApply }: { onApply(filters: AuditFilters): void }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const set = (field: keyof typeof EMPTY_FORM) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      entity: form.entity.trim() || undefined,
      action: form.action.trim() || undefined,
      actor: form.actor.trim() || undefined,
      from: toInstant(form.from),
      to: toInstant(form.to),
    });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Audit filters"
      className="mb-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
    >
      <TextField
        label="Entity"
        placeholder="prisoner, alert, session…"
        value={form.entity}
        onChange={set('entity')}
        list="audit-entities"
      />
      <datalist id="audit-entities">
        {['prisoner', 'staff', 'cell', 'geofence', 'alert', 'device', 'admin', 'session', 'message', 'positions'].map(
          (e) => (
            <option key={e} value={e} />
          ),
        )}
      </datalist>
      <TextField label="Action" placeholder="login, create, resolve…" value={form.action} onChange={set('action')} />
      <TextField label="Who" placeholder="username" value={form.actor} onChange={set('actor')} />
      <TextField label="From" type="datetime-local" value={form.from} onChange={set('from')} />
      <TextField label="To" type="datetime-local" value={form.to} onChange={set('to')} />
      <div className="flex items-end gap-2">
        <Button type="submit">Apply Filters</Button>
        <Button
          variant="ghost"
          onClick={() => {
            setForm(EMPTY_FORM);
            onApply({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  const hasDiff = entry.changes.length > 0;
  return (
    <Fragment>
      <tr
        data-testid="audit-row"
        data-action={entry.action}
        data-entity={entry.entity}
        data-entity-id={entry.entity_id ?? undefined}
        className="border-b border-slate-100 align-top"
      >
        <td className="py-2 pr-3">
          {hasDiff && (
            <button
              type="button"
              aria-expanded={open}
              aria-label={open ? 'Hide changes' : 'Show changes'}
              className="rounded p-0.5 text-slate-600 hover:bg-slate-100"
              onClick={() => setOpen((o) => !o)}
            >
              {open ? <ChevronDown className="h-4 w-4" /> : <ChevronRight className="h-4 w-4" />}
            </button>
          )}
        </td>
        <td className="py-2 pr-3 whitespace-nowrap">
          <time dateTime={entry.at}>{utc(entry.at)}</time>
          <div className="text-xs text-slate-500">{local(entry.at)} local</div>
        </td>
        <td className="py-2 pr-3">
          {entry.actor_label}
          {/* The username too: what the "Who" filter matches. */}
          {entry.actor_label !== entry.actor && <div className="text-xs text-slate-600">{entry.actor}</div>}
        </td>
        <td className="py-2 pr-3 font-mono text-xs">{entry.action}</td>
        <td className="py-2 pr-3">{entry.entity_label ?? entry.entity}</td>
        <td className="py-2 font-mono text-xs">{entry.ip ?? '—'}</td>
      </tr>
      {open && (
        <tr className="border-b border-slate-100 bg-slate-50">
          <td />
          <td colSpan={5} className="px-2 py-3">
            <AuditDiff changes={entry.changes} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

export function AuditPage() {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<AuditFilters>({});
  const audit = useAuditPage(page, filters);

  return (
    <Page title="Audit trail">
      <FilterForm
        onApply={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      {audit.isPending ? (
        <Loading text="Loading audit trail..." />
      ) : audit.isError ? (
        <ErrorText>{errorMessage(audit.error, 'Failed to fetch the audit trail.')}</ErrorText>
      ) : audit.data.entries.length === 0 ? (
        <EmptyState>No audit entries match these filters.</EmptyState>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white px-4 shadow-sm">
          <div className="flex flex-wrap items-center justify-between gap-2 pt-3">
            <p className="text-sm text-slate-600">{audit.data.total.toLocaleString('en-GB')} entries</p>
            {/* What the filters show, oldest first, with each entry's hash and the chain's state checked at export. */}
            <a
              href={auditExportUrl(filters)}
              download
              className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 sm:min-h-0"
            >
              <Download className="h-4 w-4" aria-hidden /> Export CSV
            </a>
          </div>
          {/* On a phone the table scrolls sideways in this box rather than crushing its columns (decision 030); the box
              takes the keyboard focus, so the arrow keys scroll it too. */}
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Audit entries">
            <table className="w-full min-w-[48rem] text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th className="w-8 py-2">
                    <span className="sr-only">Details</span>
                  </th>
                  <th className="py-2 pr-3 font-medium">When</th>
                  <th className="py-2 pr-3 font-medium">Who</th>
                  <th className="py-2 pr-3 font-medium">Action</th>
                  <th className="py-2 pr-3 font-medium">Record</th>
                  <th className="py-2 font-medium">Address</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={audit.data.currentPage}
            totalPages={audit.data.totalPages}
            onPageChange={setPage}
            label="Audit pages"
          />
        </div>
      )}
    </Page>
  );
}
