// Previous / Next with "Page X of Y" (docs/CLIENT-CONTRACT.md): Previous is disabled on the first page, Next on the last.
import { Button } from './button';

export interface PaginationProps {
  page: number;
  totalPages: number;
  onPageChange(page: number): void;
  label?: string;
}

export function Pagination({ page, totalPages, onPageChange, label = 'Pagination' }: PaginationProps) {
  const last = Math.max(1, totalPages);
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 py-3">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-slate-700" aria-live="polite">
        Page {page} of {last}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= last} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
