// What a count's submits and accounts make of it (decision 098), pure so the rules are read in one place: a count is
// what the officers saw. Everyone expected seen (or a typed number equal to the roll) is clear whatever the trackers
// say; a prisoner seen whose tracker places him elsewhere is a tracker to check, not a prisoner to find. Otherwise the
// prisoners not seen are the ones to find, until a recount sees them or each is accounted for.
import type { CountAccount, CountBlockRoll, CountLine, CountSubmission } from '@prison/shared';

export interface CountFacts {
  lines: CountLine[];
  submissions: CountSubmission[];
  accounts: CountAccount[];
}

/** The submit that decides: the last one. */
export const lastSubmission = (facts: Pick<CountFacts, 'submissions'>): CountSubmission | null =>
  facts.submissions.at(-1) ?? null;

/** Whether a submit agrees with the roll: everyone seen, or the typed number equal to it. */
export function agrees(lines: CountLine[], submit: { seen: number[] | null; counted: number }): boolean {
  if (submit.seen === null) return submit.counted === lines.length;
  const seen = new Set(submit.seen);
  return lines.every((line) => seen.has(line.prisoner_id));
}

/** The lines seen by a submit: the ticked ones, or every line when a typed number equals the roll (none otherwise). */
function seenLines(lines: CountLine[], submit: CountSubmission | null): CountLine[] {
  if (submit === null) return [];
  if (submit.seen === null) return submit.counted === lines.length ? lines : [];
  const seen = new Set(submit.seen);
  return lines.filter((line) => seen.has(line.prisoner_id));
}

/** Prisoners seen whose tracker says he is somewhere else: the officer's eyes stand, the tracker is checked. */
export function trackerMismatches(lines: CountLine[], submit: CountSubmission | null): CountLine[] {
  return seenLines(lines, submit).filter((line) => line.state === 'elsewhere');
}

/** The prisoners a named count did not see and nobody has accounted for; a typed total names nobody. */
export function toFind(facts: CountFacts): CountLine[] {
  const submit = lastSubmission(facts);
  if (submit === null || submit.seen === null) return [];
  const seen = new Set(submit.seen);
  const out = new Set(facts.accounts.map((account) => account.prisoner_id));
  return facts.lines.filter((line) => !seen.has(line.prisoner_id) && !out.has(line.prisoner_id));
}

/** How many are still to find: the named ones, or for a typed total the roll less the number (never below 0). */
export function missingCount(facts: CountFacts): number {
  const submit = lastSubmission(facts);
  if (submit === null) return 0;
  if (submit.seen === null) return Math.max(0, facts.lines.length - submit.counted);
  return toFind(facts).length;
}

/** Each block's roll: expected, seen, out with a reason and to find (a typed total gives a number for one block only). */
export function rollOf(facts: CountFacts, blocks: string[]): CountBlockRoll[] {
  const submit = lastSubmission(facts);
  const named = submit?.seen === null ? null : new Set(submit?.seen ?? []);
  const missing = toFind(facts);
  return blocks.map((block) => {
    const own = facts.lines.filter((line) => line.block === block);
    let seen: number | null;
    if (submit === null) seen = 0;
    else if (named !== null) seen = own.filter((line) => named.has(line.prisoner_id)).length;
    else seen = blocks.length === 1 ? submit.counted : null;
    const typedShort = named === null && blocks.length === 1 ? missingCount(facts) : 0;
    return {
      block,
      expected: own.length,
      seen,
      out: facts.accounts.filter((account) => account.block === block).length,
      to_find: missing.filter((line) => line.block === block).length + typedShort,
    };
  });
}
