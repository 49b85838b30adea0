// Who is who (decision 101): a prisoner's photo (or his initials), name, prison number and flag badges, the same on
// every screen where an officer acts on him: lists, details, the count sheet, the round screen, the map.
import { PRISONER_FLAG_LABELS, prisonerPhotoUrl, type PrisonerFlagKind } from '@prison/shared/prisoner-identity';

export interface IdentifiedPrisoner {
  prisoner_id: number;
  first_name: string;
  last_name: string;
  prison_number: string;
  /** null: no photo, his initials instead. */
  photo_digest?: string | null;
  flags?: readonly PrisonerFlagKind[];
}

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-12 w-12 text-sm', lg: 'h-32 w-32 text-3xl' } as const;
type Size = keyof typeof SIZES;

const FLAG_STYLES: Record<PrisonerFlagKind, string> = {
  self_harm: 'border-purple-300 bg-purple-50 text-purple-900',
  escape: 'border-amber-300 bg-amber-50 text-amber-900',
  violence: 'border-red-300 bg-red-50 text-red-900',
  medical: 'border-sky-300 bg-sky-50 text-sky-900',
};

const initials = (p: Pick<IdentifiedPrisoner, 'first_name' | 'last_name'>) =>
  `${p.first_name.trim().charAt(0)}${p.last_name.trim().charAt(0)}`.toUpperCase() || '?';

/** The photo, or a circle with his initials; the name is in the alternative text, so it reads alone too. */
export function PrisonerPhoto({ prisoner, size = 'sm' }: { prisoner: IdentifiedPrisoner; size?: Size }) {
  const name = `${prisoner.first_name} ${prisoner.last_name}`.trim();
  if (prisoner.photo_digest)
    return (
      <img
        src={prisonerPhotoUrl(prisoner.prisoner_id, prisoner.photo_digest)}
        alt={`Photo of ${name} (${prisoner.prison_number})`}
        className={`${SIZES[size]} shrink-0 rounded-full border border-slate-200 object-cover`}
        loading="lazy"
        data-testid="prisoner-photo"
      />
    );
  return (
    <span
      role="img"
      aria-label={`No photo of ${name} (${prisoner.prison_number})`}
      className={`${SIZES[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-slate-200 font-semibold text-slate-700`}
      data-testid="prisoner-initials"
    >
      {initials(prisoner)}
    </span>
  );
}

/** One badge per flag in force ("Self-harm risk", "Medical alert"); nothing when he has none. */
export function PrisonerFlagBadges({ flags }: { flags?: readonly PrisonerFlagKind[] }) {
  if (!flags?.length) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {flags.map((kind) => (
        <span key={kind} className={`rounded border px-1.5 py-0.5 text-xs font-semibold ${FLAG_STYLES[kind]}`} data-testid={`flag-${kind}`}>
          {PRISONER_FLAG_LABELS[kind]}
        </span>
      ))}
    </span>
  );
}

/** The prison number as a label that reads the same everywhere. */
export function PrisonNumber({ value }: { value: string }) {
  return (
    <span className="font-mono text-xs font-semibold tracking-wide text-slate-700" data-testid="prison-number">
      {value}
    </span>
  );
}

/** Photo, name and number on one line, the badges under them: for a row of a list, a sheet or a popup. */
export function PrisonerIdentity({ prisoner, size = 'sm', showName = true }: { prisoner: IdentifiedPrisoner; size?: Size; showName?: boolean }) {
  const name = `${prisoner.first_name} ${prisoner.last_name}`.trim() || `Prisoner ${prisoner.prisoner_id}`;
  return (
    <span className="inline-flex min-w-0 items-center gap-2">
      <PrisonerPhoto prisoner={prisoner} size={size} />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          {showName && <span className="truncate font-medium text-slate-900">{name}</span>}
          <PrisonNumber value={prisoner.prison_number} />
        </span>
        <PrisonerFlagBadges flags={prisoner.flags} />
      </span>
    </span>
  );
}
