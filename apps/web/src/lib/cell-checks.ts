// What placing one prisoner in each cell would meet (GET /cell_controls/check, decision 031), for the screens that
// offer cells: they mark each refused cell and why before anything is written. The server checks again on the write.
import { useQuery } from '@tanstack/react-query';
import { canOverride, type CellCheck, type CellRefusal } from '@prison/shared/cell-rules';
import { api, ApiError } from './api-client';

export interface CellCheckSubject {
  prisonerId?: number | null;
  /** What the form holds now, standing in for the record. */
  gender?: string | null;
  status?: string | null;
}

function cellChecksQuery(subject: CellCheckSubject, enabled: boolean) {
  const query = {
    prisoner_id: subject.prisonerId ?? undefined,
    gender: subject.gender || undefined,
    status: subject.status || undefined,
  };
  return {
    queryKey: ['cells', 'check', query],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.get<{ data: CellCheck[] }>('/cell_controls/check', query, signal).then((r) => r.data),
    enabled,
  };
}

/** Refusals by cell id; the current cell of the prisoner has none. */
export function useCellChecks(subject: CellCheckSubject, enabled: boolean) {
  return useQuery({
    ...cellChecksQuery(subject, enabled),
    select: (checks) => new Map(checks.map((c) => [c.cell_id, c.refusals])),
  });
}

/** Every cell with its block and what it would answer, in block and cell order (one cache entry with the above). */
export function useCellCheckList(subject: CellCheckSubject, enabled: boolean) {
  return useQuery(cellChecksQuery(subject, enabled));
}

export type CellVerdict = { kind: 'allowed' } | { kind: 'override'; refusals: CellRefusal[] } | { kind: 'refused'; refusals: CellRefusal[] };

export function cellVerdict(refusals: CellRefusal[] | undefined): CellVerdict {
  if (!refusals || refusals.length === 0) return { kind: 'allowed' };
  return canOverride(refusals) ? { kind: 'override', refusals } : { kind: 'refused', refusals };
}

/** A write refused by a rule that an override can lift (409 with a rule other than capacity). */
export function overridableRefusal(error: unknown): CellRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const rule = (error.body as { rule?: CellRefusal['rule'] } | undefined)?.rule;
  return rule && rule !== 'capacity' ? { rule, message: error.message } : null;
}
