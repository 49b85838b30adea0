// Names are not unique (the demo data alone has 14 pairs), so wherever a prisoner appears his prison number (or, where
// the data has none, the id) and the cell stand beside the name: "First Last · A0042 · cell X" (or "no cell"). One
// formatter, so every screen reads the same.

export interface LabelledPrisoner {
  name: string;
  /** null or absent: a tracker worn by nobody, which is named by itself. */
  prisonerId?: number | null;
  /** The prison number (decision 101): shown instead of the id when known. */
  prisonNumber?: string | null;
  cellId?: string | null;
}

/** The number (or id) and the cell alone ("A0012 · cell B-4"), for a place that shows the name on its own line; '' for no prisoner. */
export function prisonerTag({ prisonerId, prisonNumber, cellId }: Omit<LabelledPrisoner, 'name'>): string {
  if (prisonerId === null || prisonerId === undefined) return '';
  return `${prisonNumber || `#${prisonerId}`} · ${cellId ? `cell ${cellId}` : 'no cell'}`;
}

/** "First Last · #id · cell X"; a blank name reads "Prisoner <id>"; a tracker worn by nobody keeps its own name. */
export function prisonerLabel(prisoner: LabelledPrisoner): string {
  const tag = prisonerTag(prisoner);
  if (!tag) return prisoner.name;
  return `${prisoner.name.trim() || `Prisoner ${prisoner.prisonerId}`} · ${tag}`;
}
