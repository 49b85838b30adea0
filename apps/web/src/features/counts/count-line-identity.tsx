// Who a count line is (decision 101): his photo (or initials), name, prison number and flag badges, so the officer
// at the cell door knows which of two men of the same name he is looking at. Counts started before the number was
// kept on the line show the name alone.
import { clsx } from 'clsx';
import type { CountLine } from '@prison/shared/roll-count';
import { PrisonNumber, PrisonerFlagBadges, PrisonerPhoto } from '../../components/prisoner-identity';

/** The line's name split for the initials: the first word, then the rest. */
function namesOf(name: string) {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
}

export function CountLineIdentity({ line, struck = false }: { line: CountLine; struck?: boolean }) {
  const number = line.prison_number ?? null;
  return (
    <div className="flex min-w-0 items-center gap-2">
      {number && (
        <PrisonerPhoto
          prisoner={{ prisoner_id: line.prisoner_id, ...namesOf(line.name), prison_number: number, photo_digest: line.photo_digest ?? null }}
        />
      )}
      <div className="flex min-w-0 flex-col gap-0.5">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className={clsx('font-medium break-words', struck ? 'text-red-800 line-through' : 'text-slate-900')}>{line.name}</span>
          {number && <PrisonNumber value={number} />}
        </p>
        <PrisonerFlagBadges flags={line.flags ?? undefined} />
      </div>
    </div>
  );
}
