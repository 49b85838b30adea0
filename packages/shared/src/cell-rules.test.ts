import { describe, expect, it } from 'vitest';
import { canOverride, cellRefusals, type RuleOccupant, type RulePrisoner } from './cell-rules';

const cell = { cell_id: 'A-1', block: 'A', capacity: 6 };
const mover: RulePrisoner = { prisoner_id: 9, first_name: 'Jane', last_name: 'Doe', gender: 'Female', status: 'On Trial' };
const man = (id: number, gender: string | null = 'Male'): RuleOccupant => ({ prisoner_id: id, first_name: 'John', last_name: `Roe${id}`, gender });

describe('cellRefusals', () => {
  it('allows an empty cell, and a cell of the same sex or of unrecorded sex', () => {
    expect(cellRefusals(mover, cell, [], [])).toEqual([]);
    expect(cellRefusals(mover, cell, [{ ...man(1), gender: 'Female' }, man(2, null)], [])).toEqual([]);
    expect(cellRefusals({ ...mover, gender: null }, cell, [man(1)], [])).toEqual([]);
  });

  it('names at most three other prisoners, then how many more', () => {
    const [refusal] = cellRefusals(mover, cell, [man(1), man(2), man(3), man(4), man(5)], []);
    expect(refusal).toEqual({
      rule: 'sex',
      message:
        'Cell A-1 holds John Roe1 (#1), John Roe2 (#2), John Roe3 (#3) and 2 more (male); Jane Doe (#9) is female: a cell holds prisoners of one sex',
    });
  });

  it('orders capacity, status, sex, keep-apart; only capacity cannot be overridden', () => {
    const full = { ...cell, capacity: 1 };
    const partner = { prisoner_id: 1, first_name: 'John', last_name: 'Roe1', cell_id: 'A-1', block: 'A', scope: 'cell' as const };
    const refusals = cellRefusals({ ...mover, status: 'Released' }, full, [man(1)], [partner]);
    expect(refusals.map((r) => r.rule)).toEqual(['capacity', 'status', 'sex', 'keep_apart']);
    expect(canOverride(refusals)).toBe(false);
    expect(canOverride(refusals.slice(1))).toBe(true);
    expect(canOverride([])).toBe(false);
  });

  it('bars the whole block only for a block-scoped pair', () => {
    const elsewhere = { prisoner_id: 1, first_name: 'John', last_name: 'Roe1', cell_id: 'A-2', block: 'A' };
    expect(cellRefusals(mover, cell, [], [{ ...elsewhere, scope: 'cell' }])).toEqual([]);
    expect(cellRefusals(mover, cell, [], [{ ...elsewhere, scope: 'block' }])).toEqual([
      { rule: 'keep_apart', message: 'Jane Doe (#9) must be kept out of block A: John Roe1 (#1) (cell A-2) is to be kept apart by block' },
    ]);
    expect(cellRefusals(mover, { ...cell, block: 'B' }, [], [{ ...elsewhere, scope: 'block' }])).toEqual([]);
  });
});
