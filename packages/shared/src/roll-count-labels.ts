// The words of a roll count, without a schema: the counts on the overview read them without loading the validation
// library.
/** Where a counted prisoner's tracker is. */
export const COUNT_LINE_STATES = ['in_block', 'elsewhere', 'offline', 'untracked'] as const;
export type CountLineState = (typeof COUNT_LINE_STATES)[number];
export const COUNT_LINE_LABELS: Record<CountLineState, string> = {
  in_block: 'In block',
  elsewhere: 'Elsewhere',
  offline: 'Offline',
  untracked: 'Untracked',
};

/**
 * open: started, nothing submitted; clear: everyone expected seen (or the typed number equals the roll); discrepancy:
 * someone not seen; closed: a discrepancy ended by accounting for each prisoner not seen.
 */
export const COUNT_STATES = ['open', 'clear', 'discrepancy', 'closed'] as const;
export type CountState = (typeof COUNT_STATES)[number];

/** Why a prisoner not seen in his cell is out of the block: each one missing is accounted for with one of these. */
export const COUNT_OUT_REASONS = ['healthcare', 'court', 'visits', 'segregation', 'escorted_out', 'other'] as const;
export type CountOutReason = (typeof COUNT_OUT_REASONS)[number];
export const COUNT_OUT_REASON_LABELS: Record<CountOutReason, string> = {
  healthcare: 'Healthcare',
  court: 'Court',
  visits: 'Visits',
  segregation: 'Segregation',
  escorted_out: 'Escorted out of the site',
  other: 'Other',
};

/** The scope of a count of the whole prison (POST /counts `scope`). */
export const COUNT_WHOLE_PRISON = 'prison';
