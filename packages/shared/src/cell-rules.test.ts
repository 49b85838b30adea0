import { describe, expect, it } from 'vitest';
import { canOverride, cellRefusals, keepApartBreach, keepApartWayOut, sharesScope, type RuleOccupant, type RulePrisoner } from './cell-rules';

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

  it('bars the landing (one block, one landing number) only for a landing-scoped pair', () => {
    const onLanding = { prisoner_id: 1, first_name: 'John', last_name: 'Roe1', cell_id: 'A-204', block: 'A' };
    const a201 = { cell_id: 'A-201', block: 'A', capacity: 2 };
    expect(cellRefusals(mover, a201, [], [{ ...onLanding, scope: 'cell' }])).toEqual([]);
    expect(cellRefusals(mover, a201, [], [{ ...onLanding, scope: 'landing' }])).toEqual([
      { rule: 'keep_apart', message: 'Jane Doe (#9) must be kept off landing 2 of block A: John Roe1 (#1) (cell A-204) is to be kept apart by landing' },
    ]);
    // Another landing of the block, the same landing number in another block, a cell without a landing number.
    expect(cellRefusals(mover, { ...a201, cell_id: 'A-101' }, [], [{ ...onLanding, scope: 'landing' }])).toEqual([]);
    expect(cellRefusals(mover, { ...a201, cell_id: 'B-201', block: 'B' }, [], [{ ...onLanding, scope: 'landing' }])).toEqual([]);
    expect(cellRefusals(mover, { ...a201, cell_id: 'A-1' }, [], [{ ...onLanding, cell_id: 'A-2', scope: 'landing' }])).toEqual([]);
    // Sharing the cell is refused under every scope.
    expect(cellRefusals(mover, a201, [], [{ ...onLanding, cell_id: 'A-201', scope: 'landing' }])).toMatchObject([{ rule: 'keep_apart' }]);
  });
});

describe('keepApartBreach', () => {
  const place = (prisoner_id: number, cell_id: string, block: string) => ({ prisoner_id, first_name: 'P', last_name: `${prisoner_id}`, cell_id, block });

  it('names the landing two prisoners share for a pair by landing, and the way off it', () => {
    const a = place(1, 'A-201', 'A');
    const b = place(2, 'A-207', 'A');
    expect(keepApartBreach(a, b, 'landing')).toBe('P 1 (#1) and P 2 (#2) must be kept apart by landing and are both on landing 2 of block A (cells A-201 and A-207)');
    expect(keepApartWayOut(a, 'landing')).toBe('move one of them off landing 2 of block A in the same step to create the pair');
    expect(keepApartBreach(a, b, 'cell')).toBeNull();
    expect(keepApartBreach(a, place(2, 'A-107', 'A'), 'landing')).toBeNull();
    expect(keepApartBreach(a, place(2, 'B-207', 'B'), 'landing')).toBeNull();
    expect(keepApartBreach(a, b, 'block')).toMatch(/kept apart by block/);
  });

  it('sharesScope: the cell under every scope, the landing and the block under theirs', () => {
    const a = { cell_id: 'C-305', block: 'C' };
    expect((['cell', 'landing', 'block'] as const).map((s) => sharesScope(a, a, s))).toEqual([true, true, true]);
    expect((['cell', 'landing', 'block'] as const).map((s) => sharesScope(a, { cell_id: 'C-312', block: 'C' }, s))).toEqual([false, true, true]);
    expect((['cell', 'landing', 'block'] as const).map((s) => sharesScope(a, { cell_id: 'C-205', block: 'C' }, s))).toEqual([false, false, true]);
    // Cells without a landing number share no landing.
    expect(sharesScope({ cell_id: 'C-A', block: 'C' }, { cell_id: 'C-B', block: 'C' }, 'landing')).toBe(false);
  });
});
