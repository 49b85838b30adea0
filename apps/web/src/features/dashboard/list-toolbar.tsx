// The row above each management table: search box, Filter toggle and the create button.
import type { ReactNode } from 'react';
import { Filter, Plus, Search } from 'lucide-react';
import { Button } from '../../components/ui/button';

export interface ListToolbarProps {
  searchPlaceholder: string;
  search: string;
  onSearchChange(value: string): void;
  filtersOpen: boolean;
  onToggleFilters(): void;
  filtersActive: boolean;
  createLabel: string;
  /** Absent when the role may not create (decision 053): no create button. */
  onCreate?: () => void;
  filterPanelId: string;
}

export function ListToolbar(props: ListToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <div className="relative min-w-56 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <input
          type="search"
          aria-label={props.searchPlaceholder}
          placeholder={props.searchPlaceholder}
          value={props.search}
          onChange={(event) => props.onSearchChange(event.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm shadow-sm focus:border-brand-700 focus:outline-none"
        />
      </div>
      <Button
        variant="secondary"
        aria-expanded={props.filtersOpen}
        aria-controls={props.filterPanelId}
        onClick={props.onToggleFilters}
      >
        <Filter className="h-4 w-4" aria-hidden="true" />
        Filter
        {props.filtersActive && (
          <span className="h-2 w-2 rounded-full bg-accent-500" title="Filters applied" aria-hidden="true" />
        )}
      </Button>
      {props.onCreate && (
        <Button onClick={props.onCreate}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          {props.createLabel}
        </Button>
      )}
    </div>
  );
}

/** The filter panel: its fields, "Apply Filters" and a way to clear them. */
export function FilterPanel({
  id,
  children,
  onApply,
  onClear,
}: {
  id: string;
  children: ReactNode;
  onApply(): void;
  onClear(): void;
}) {
  return (
    <form
      id={id}
      aria-label="Filters"
      className="mt-3 rounded-md border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">{children}</div>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="ghost" onClick={onClear}>
          Clear Filters
        </Button>
        <Button type="submit">Apply Filters</Button>
      </div>
    </form>
  );
}

export function TableShell({ children }: { children: ReactNode }) {
  return (
    <div className="relative mt-4 overflow-x-auto rounded-md border border-slate-200 bg-white shadow-sm">
      {children}
    </div>
  );
}

export const thClass =
  'px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase';
export const tdClass = 'px-3 py-2 text-sm whitespace-nowrap text-slate-800';
