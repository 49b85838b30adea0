// Who may share a cell (decision 031): the rules every cell move is checked against, on the server inside
// the write's transaction and ahead of time for the screens (GET /cell_controls/check). One pure function decides
// for both, so the screen marks a cell with exactly the sentence the server would refuse it with.
import { z } from 'zod';
import { GENDERS, OCCUPYING_STATUSES, PRISONER_STATUSES } from './constants';
import { landingOf } from './roll-count';
import { REASON_MIN_LENGTH, intText, reasonText } from './text';

export const CELL_RULES = ['capacity', 'sex', 'status', 'keep_apart'] as const;
export type CellRule = (typeof CELL_RULES)[number];
/** Every rule but capacity may be overridden with a reason; a full cell stays full. */
export const OVERRIDABLE_RULES: readonly CellRule[] = ['sex', 'status', 'keep_apart'];
export const OVERRIDE_REASON_MIN = REASON_MIN_LENGTH;
export const OVERRIDE_REASON_MAX = 500;

/** `override_reason` of any write that gives a prisoner a cell: a reason in words (`reasonText`, decision 043). */
export const overrideReason = reasonText(OVERRIDE_REASON_MAX).nullable().optional();

/** A refusal of a cell move: 409 `{ message, rule }`. Other 409s of the same routes carry no rule. */
export const cellRuleConflict = z.object({ message: z.string(), rule: z.enum(CELL_RULES).optional() });
export type CellRuleConflict = z.infer<typeof cellRuleConflict>;

export interface CellRefusal {
  rule: CellRule;
  message: string;
}
export const cellRefusal = z.object({ rule: z.enum(CELL_RULES), message: z.string() });

/** The prisoner to be placed, as the write will leave them. */
export interface RulePrisoner {
  prisoner_id: number | null;
  first_name: string;
  last_name: string;
  gender: string | null;
  status: string | null;
}
/** Someone who occupies the cell (On Trial or Incarcerated), not the prisoner being placed. */
export interface RuleOccupant {
  prisoner_id: number;
  first_name: string;
  last_name: string;
  gender: string | null;
}
/** The other prisoner of an active keep-apart pair, where they are now (only when they occupy a cell). */
export interface RulePartner {
  prisoner_id: number;
  first_name: string;
  last_name: string;
  cell_id: string;
  block: string;
  scope: KeepApartScope;
}
export interface RuleCell {
  cell_id: string;
  block: string;
  capacity: number;
}

export const KEEP_APART_SCOPES = ['cell', 'landing', 'block'] as const;
export type KeepApartScope = (typeof KEEP_APART_SCOPES)[number];

/** A cell as the keep-apart scopes see it: its id (which carries its landing) and its block. */
export interface ScopePlace {
  cell_id: string;
  block: string;
}

/**
 * Two cells on one landing: one block and the same landing number (`landingOf`). A cell whose id carries no landing
 * number shares a landing with no other cell.
 */
export function sameLanding(a: ScopePlace, b: ScopePlace): boolean {
  const landing = landingOf(a.cell_id);
  return a.block === b.block && landing !== null && landing === landingOf(b.cell_id);
}

/** True when two cells are together as a keep-apart pair of this scope forbids (one cell always is). */
export function sharesScope(a: ScopePlace, b: ScopePlace, scope: KeepApartScope): boolean {
  if (a.cell_id === b.cell_id) return true;
  if (scope === 'block') return a.block === b.block;
  if (scope === 'landing') return sameLanding(a, b);
  return false;
}

/** "landing 2 of block A": a landing in words (the cell's id must carry a landing number). */
function landingWords(p: ScopePlace): string {
  return `landing ${landingOf(p.cell_id)} of block ${p.block}`;
}

/** "Jane Doe (#12)": who a refusal is about, never ambiguous (decision 025). */
export function ruleName(p: { first_name: string; last_name: string; prisoner_id: number | null }): string {
  const name = `${p.first_name} ${p.last_name}`.trim();
  return p.prisoner_id == null ? name : `${name} (#${p.prisoner_id})`;
}

function listNames(people: { first_name: string; last_name: string; prisoner_id: number | null }[]): string {
  const names = people.slice(0, 3).map(ruleName);
  if (people.length > 3) names.push(`${people.length - 3} more`);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const sexWord = (gender: string | null) =>
  gender === 'Male' ? 'male' : gender === 'Female' ? 'female' : gender === 'Other' ? 'recorded as Other' : 'of unrecorded sex';

export const isOccupyingStatus = (status: string | null | undefined) =>
  status != null && (OCCUPYING_STATUSES as readonly string[]).includes(status);

/**
 * Why placing `prisoner` in `cell` would be refused, in the order capacity, status, sex, keep-apart; empty when it is
 * allowed. `occupants` are the cell's occupants other than the prisoner; `partners` the prisoner's active keep-apart
 * partners who occupy a cell. An unrecorded gender is not compared (the form allows it empty); Other is placed only
 * with an override.
 */
export function cellRefusals(
  prisoner: RulePrisoner,
  cell: RuleCell,
  occupants: RuleOccupant[],
  partners: RulePartner[],
): CellRefusal[] {
  const refusals: CellRefusal[] = [];
  const who = ruleName(prisoner);
  if (occupants.length >= cell.capacity) refusals.push({ rule: 'capacity', message: `Cell ${cell.cell_id} is full` });
  if (!isOccupyingStatus(prisoner.status)) {
    refusals.push({
      rule: 'status',
      message: `${who} is ${prisoner.status ?? 'without a status'}: only On Trial and Incarcerated prisoners hold a cell`,
    });
  }
  if (prisoner.gender === 'Other') {
    refusals.push({
      rule: 'sex',
      message: `${who} is recorded as Other: a place in cell ${cell.cell_id} needs an override`,
    });
  } else if (prisoner.gender != null) {
    const others = occupants.filter((o) => o.gender != null && o.gender !== prisoner.gender);
    if (others.length > 0) {
      refusals.push({
        rule: 'sex',
        message: `Cell ${cell.cell_id} holds ${listNames(others)} (${sexWord(others[0]!.gender)}); ${who} is ${sexWord(prisoner.gender)}: a cell holds prisoners of one sex`,
      });
    }
  }
  const inCell = partners.filter((p) => p.cell_id === cell.cell_id);
  const inBlock = partners.filter((p) => p.scope === 'block' && p.cell_id !== cell.cell_id && p.block === cell.block);
  const onLanding = partners.filter((p) => p.scope === 'landing' && p.cell_id !== cell.cell_id && sameLanding(p, cell));
  if (inCell.length > 0) {
    refusals.push({
      rule: 'keep_apart',
      message: `${who} must be kept apart from ${listNames(inCell)}, who ${inCell.length === 1 ? 'is' : 'are'} in cell ${cell.cell_id}`,
    });
  } else if (inBlock.length > 0) {
    refusals.push({
      rule: 'keep_apart',
      message: `${who} must be kept out of block ${cell.block}: ${listNames(inBlock)} (cell ${inBlock[0]!.cell_id}) is to be kept apart by block`,
    });
  } else if (onLanding.length > 0) {
    refusals.push({
      rule: 'keep_apart',
      message: `${who} must be kept off ${landingWords(cell)}: ${listNames(onLanding)} (cell ${onLanding[0]!.cell_id}) is to be kept apart by landing`,
    });
  }
  return refusals;
}

/** A prisoner of a keep-apart pair where he is now (he occupies a cell). */
export interface PairPlace {
  prisoner_id: number;
  first_name: string;
  last_name: string;
  cell_id: string;
  block: string;
}

/**
 * Where two prisoners of a keep-apart pair are together as its scope forbids (one cell; one landing or one block when
 * the scope is the landing or the block), in one sentence; null when they are apart. Flags a cell card, and refuses a
 * pair made on cellmates.
 */
export function keepApartBreach(a: PairPlace, b: PairPlace, scope: KeepApartScope): string | null {
  const both = `${ruleName(a)} and ${ruleName(b)}`;
  if (a.cell_id === b.cell_id) return `${both} must be kept apart and share cell ${a.cell_id}`;
  if (scope === 'block' && a.block === b.block) {
    return `${both} must be kept apart by block and are both in block ${a.block} (cells ${a.cell_id} and ${b.cell_id})`;
  }
  if (scope === 'landing' && sameLanding(a, b)) {
    return `${both} must be kept apart by landing and are both on ${landingWords(a)} (cells ${a.cell_id} and ${b.cell_id})`;
  }
  return null;
}

/** The way out of a breach when a pair is made: where one of the two must go, in the same step. */
export function keepApartWayOut(a: PairPlace, scope: KeepApartScope): string {
  if (scope === 'landing' && landingOf(a.cell_id) !== null) return `move one of them off ${landingWords(a)} in the same step to create the pair`;
  const place = scope === 'block' ? `block ${a.block}` : `cell ${a.cell_id}`;
  return `move one of them out of ${place} in the same step to create the pair`;
}

/**
 * GET /cell_controls/check: what each cell would answer to placing one prisoner there. `gender` and `status` stand in
 * for the record's (the form being filled in); without `prisoner_id` (a new prisoner) they are all there is.
 */
export const cellCheckQuery = z.object({
  prisoner_id: intText().optional(),
  gender: z.enum(GENDERS, { message: `gender must be one of ${GENDERS.join(', ')}` }).optional(),
  status: z.enum(PRISONER_STATUSES, { message: `status must be one of ${PRISONER_STATUSES.join(', ')}` }).optional(),
});
export type CellCheckQuery = z.infer<typeof cellCheckQuery>;

export const cellCheck = z.object({
  cell_id: z.string(),
  block: z.string(),
  /** The prisoner already occupies this cell: nothing to check. */
  current: z.boolean(),
  refusals: z.array(cellRefusal),
});
export type CellCheck = z.infer<typeof cellCheck>;
export const cellCheckResponse = z.object({ data: z.array(cellCheck) });

/** True when a refusal list can be overridden with a reason (nothing but overridable rules). */
export function canOverride(refusals: CellRefusal[]): boolean {
  return refusals.length > 0 && refusals.every((r) => OVERRIDABLE_RULES.includes(r.rule));
}
