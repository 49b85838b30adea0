// The move offered with a keep-apart pair (decision 102): two prisoners who already share what the pair forbids (a
// cell, or a landing or a block for a pair by landing or by block) are kept apart only if one of them moves in the
// same step. Says where they are (the server's own sentence), and offers who moves and the cells he may go to under
// every cell rule.
import {
  isOccupyingStatus,
  keepApartBreach,
  keepApartWayOut,
  sharesScope,
  type KeepApartScope,
  type PairPlace,
} from '@prison/shared/cell-rules';
import type { Prisoner } from '@prison/shared/prisoner';
import { useCellCheckList } from '../../lib/cell-checks';
import { errorMessage } from '../../lib/api-client';

/** Where a prisoner is, when he occupies a cell. */
function placeOf(p: Prisoner): PairPlace | null {
  return isOccupyingStatus(p.status) && p.cell_id && p.cell_block
    ? { prisoner_id: p.prisoner_id, first_name: p.first_name, last_name: p.last_name, cell_id: p.cell_id, block: p.cell_block }
    : null;
}

/** What the pair would breach now, with the way out; null when the two are apart. */
export function pairBreach(a: Prisoner, b: Prisoner, scope: KeepApartScope): string | null {
  const [pa, pb] = [placeOf(a), placeOf(b)];
  const breach = pa && pb ? keepApartBreach(pa, pb, scope) : null;
  return breach && pa ? `${breach}: ${keepApartWayOut(pa, scope)}.` : null;
}

export interface PairMove {
  prisonerId: number | null;
  cellId: string;
}

const selectClass = 'min-h-11 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';

export function KeepApartMove({
  breach,
  pair,
  scope,
  move,
  onChange,
}: {
  breach: string;
  pair: [Prisoner, Prisoner];
  scope: KeepApartScope;
  move: PairMove;
  onChange(move: PairMove): void;
}) {
  const mover = pair.find((p) => p.prisoner_id === move.prisonerId) ?? null;
  const stays = pair.find((p) => p.prisoner_id !== move.prisonerId)!;
  const checks = useCellCheckList({ prisonerId: mover?.prisoner_id }, mover !== null);
  // Cells the move may take: no cell rule refuses it, and it leaves what the new pair forbids.
  const cells = (checks.data ?? []).filter(
    (c) =>
      !c.current &&
      c.refusals.length === 0 &&
      !(stays.cell_id && stays.cell_block && sharesScope(c, { cell_id: stays.cell_id, block: stays.cell_block }, scope)),
  );
  const name = (p: Prisoner) => `${p.first_name} ${p.last_name} · #${p.prisoner_id}`;

  return (
    <div role="group" aria-label="Move one of them" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="keep-apart-breach">
      <p className="text-sm text-amber-950">{breach}</p>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Who moves
        <select
          value={move.prisonerId ?? ''}
          onChange={(e) => onChange({ prisonerId: e.target.value ? Number(e.target.value) : null, cellId: '' })}
          className={selectClass}
        >
          <option value="">Select who moves</option>
          {pair.map((p) => (
            <option key={p.prisoner_id} value={p.prisoner_id}>
              {name(p)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Move to cell
        <select
          value={move.cellId}
          onChange={(e) => onChange({ ...move, cellId: e.target.value })}
          disabled={!mover}
          className={selectClass}
        >
          <option value="">{checks.isFetching ? 'Loading cells...' : cells.length === 0 && mover ? 'No cell takes him' : 'Select a cell'}</option>
          {cells.map((c) => (
            <option key={c.cell_id} value={c.cell_id}>
              {c.cell_id} · block {c.block}
            </option>
          ))}
        </select>
      </label>
      {checks.isError && <p className="text-sm text-red-700">{errorMessage(checks.error, 'Failed to fetch the cells.')}</p>}
    </div>
  );
}
