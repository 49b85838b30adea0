// What placing one prisoner in each cell would meet (GET /cell_controls/check, decision 031), for the screens that
// offer cells: they mark each refused cell and why before anything is written. The server checks again on the write.
import { useQuery } from '@tanstack/react-query';
import { canOverride, type CellCheck, type CellRefusal } from '@prison/shared';
import { api, ApiError } from './api-client';

export interface CellCheckSubject {
  prisonerId?: number | null;
  /** What the form holds now, standing in for the record. */
  gender?: string | null;
  status?: string | null;
}

/** Refusals by cell id; the current cell of the prisoner has none. */
export function useCellChecks(subject: CellCheckSubject, enabled: boolean) {
  const query = {
    prisoner_id: subject.prisonerId ?? undefined,
    gender: subject.gender || undefined,
    status: subject.status || undefined,
  };
  return useQuery({
    queryKey: ['cells', 'check', query],
    queryFn: ({ signal }) =>
      api
        .get<{ data: CellCheck[] }>('/cell_controls/check', query, signal)
        .then((r) => new Map(r.data.map((c) => [c.cell_id, c.refusals]))),
    enabled,
  });
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
