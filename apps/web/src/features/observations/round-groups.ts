// The round in walking order and urgency at once: prisoners grouped by landing, then by cell; each group placed by its
// most urgent prisoner (overdue first, then the soonest due), and within a cell the soonest due first.
import type { ObservationDueItem } from '@prison/shared/observation';
import { landingOf } from '@prison/shared/roll-count';
import { byUrgency } from './check-state';

export interface CellGroup<T> {
  cellId: string | null;
  items: T[];
}
export interface LandingGroup<T> {
  landing: number | null;
  cells: CellGroup<T>[];
}

export function roundGroups<T extends Pick<ObservationDueItem, 'due_at' | 'cell_id'>>(items: readonly T[]): LandingGroup<T>[] {
  const landings = new Map<number | null, LandingGroup<T>>();
  // Items in urgency order: each group is created by its most urgent member, so groups come out in urgency order too.
  for (const item of byUrgency(items)) {
    const key = item.cell_id === null ? null : landingOf(item.cell_id);
    let landing = landings.get(key);
    if (!landing) landings.set(key, (landing = { landing: key, cells: [] }));
    let cell = landing.cells.find((group) => group.cellId === item.cell_id);
    if (!cell) landing.cells.push((cell = { cellId: item.cell_id, items: [] }));
    cell.items.push(item);
  }
  return [...landings.values()];
}
