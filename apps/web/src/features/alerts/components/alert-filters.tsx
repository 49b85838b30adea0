// Filters of the alerts screen: what needs action or the events, type, status and a time range, applied on the server.
import { ALERT_STATUSES, ALERT_TYPES, type AlertStatus, type AlertType } from '@prison/shared/constants';
import { SelectField, TextField } from '../../../components/ui/field';
import { Button } from '../../../components/ui/button';
import { ALERT_SHOWS, type AlertFilters as Filters, type AlertShow } from '../api/alert-page';

const SHOW_LABELS: Record<AlertShow, string> = { events: 'Events (zone entries)', all: 'Everything' };

/** datetime-local value (local time, minutes) <-> ISO instant. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function AlertFilters({ filters, onChange }: { filters: Filters; onChange(next: Filters): void }) {
  const empty = !filters.alert_type && !filters.status && !filters.from && !filters.to && !filters.show;
  return (
    <form
      className="grid gap-3 rounded-md bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6"
      aria-label="Alert filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        label="Show"
        options={ALERT_SHOWS}
        optionLabels={SHOW_LABELS}
        placeholder="Needs action"
        value={filters.show ?? ''}
        onChange={(event) => onChange({ ...filters, show: (event.target.value || undefined) as AlertShow | undefined })}
      />
      <SelectField
        label="Type"
        options={ALERT_TYPES}
        placeholder="All types"
        value={filters.alert_type ?? ''}
        onChange={(event) =>
          onChange({ ...filters, alert_type: (event.target.value || undefined) as AlertType | undefined })
        }
      />
      <SelectField
        label="Status"
        options={ALERT_STATUSES}
        placeholder="All statuses"
        value={filters.status ?? ''}
        onChange={(event) =>
          onChange({ ...filters, status: (event.target.value || undefined) as AlertStatus | undefined })
        }
      />
      <TextField
        label="From"
        type="datetime-local"
        value={toLocalInput(filters.from)}
        onChange={(event) => onChange({ ...filters, from: fromLocalInput(event.target.value) })}
      />
      <TextField
        label="To"
        type="datetime-local"
        value={toLocalInput(filters.to)}
        onChange={(event) => onChange({ ...filters, to: fromLocalInput(event.target.value) })}
      />
      <div className="flex items-end">
        <Button variant="secondary" disabled={empty} onClick={() => onChange({})}>
          Clear filters
        </Button>
      </div>
    </form>
  );
}
