// The round's order: landings (the cell number's hundreds) and cells, each placed by its most urgent prisoner.
import { describe, expect, it } from 'vitest';
import { landingOf } from '@prison/shared/roll-count';
import { roundGroups } from './round-groups';

const item = (name: string, cell_id: string | null, minutes: number) => ({ name, cell_id, due_at: new Date(Date.UTC(2026, 0, 1, 8, minutes)).toISOString() });

describe('the round', () => {
  it('reads the landing from the cell number, else one landing for the block', () => {
    expect([landingOf('A-101'), landingOf('A-214'), landingOf('B12'), landingOf('Cell 7')]).toEqual([1, 2, null, null]);
  });

  it('groups by landing and cell, the most urgent group first, the soonest due first within a cell', () => {
    const groups = roundGroups([item('late', 'A-201', 30), item('first', 'A-102', 5), item('second', 'A-201', 1), item('third', 'A-101', 10), item('mate', 'A-102', 20)]);
    expect(groups.map((landing) => [landing.landing, landing.cells.map((cell) => [cell.cellId, cell.items.map((i) => i.name)])])).toEqual([
      [2, [['A-201', ['second', 'late']]]],
      [1, [['A-102', ['first', 'mate']], ['A-101', ['third']]]],
    ]);
  });
});
