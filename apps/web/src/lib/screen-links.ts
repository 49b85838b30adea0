// Links into screens whose question lives in the URL, for the screens that send someone there.

/** "Who was near" for a person over a window. */
export function nearScreenUrl(subject: { prisonerId?: number; staffId?: number }, from: string, to: string): string {
  const who = subject.prisonerId !== undefined ? `prisoner:${subject.prisonerId}` : `staff:${subject.staffId}`;
  return `/investigations/near?${new URLSearchParams({ subject: who, from, to }).toString()}`;
}

/** The replay of an incident's window with its people. */
export function replayUrl(window: { from: string; to: string }, people: { prisonerIds?: number[]; staffIds?: number[] } = {}, incidentId?: number): string {
  const query = new URLSearchParams({ from: window.from, to: window.to });
  if (people.prisonerIds?.length) query.set('prisoner_ids', people.prisonerIds.join(','));
  if (people.staffIds?.length) query.set('staff_ids', people.staffIds.join(','));
  if (incidentId !== undefined) query.set('incident', String(incidentId));
  return `/replay?${query.toString()}`;
}
