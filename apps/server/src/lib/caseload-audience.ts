// Who may see one live item (a position, an alert) by caseload (decision 051). A prisoner's item is
// for the accounts whose caseload holds the prisoner's block (a prisoner with no cell: only the accounts of every
// block); an item about nobody (a staff tracker, an unassigned device, a staff SOS) is for everyone.
import { seesEveryBlock } from '@prison/shared';
import type { Caseload } from './caseload';

export type Audience = { everyone: true } | { block: string | null };

export const EVERYONE: Audience = { everyone: true };

/** The audience of an item about this wearer: no prisoner means everyone. */
export function audienceOf(wearer: {
  prisonerId: number | null | undefined;
  block: string | null | undefined;
}): Audience {
  return wearer.prisonerId === null || wearer.prisonerId === undefined ? EVERYONE : { block: wearer.block ?? null };
}

export function visibleTo(caseload: Caseload, audience: Audience): boolean {
  if ('everyone' in audience || seesEveryBlock(caseload)) return true;
  return audience.block !== null && caseload.includes(audience.block);
}

export function sameAudience(a: Audience, b: Audience): boolean {
  if ('everyone' in a || 'everyone' in b) return 'everyone' in a && 'everyone' in b;
  return a.block === b.block;
}

/** One name per distinct caseload (order and repeats of blocks do not matter): sockets of one caseload share a room. */
export function caseloadKey(caseload: Caseload): string {
  return seesEveryBlock(caseload) ? '*' : JSON.stringify([...new Set(caseload)].sort());
}
