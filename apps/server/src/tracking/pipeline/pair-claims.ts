// Pair claims (cluster mode, decision 036): a keep-apart meeting or a failed escort concerns two trackers that may
// report to two processes, so both may see it start. The pair's (or escort's) row flag decides who raises the alert.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { EscortEvent } from '../escort-monitor';
import type { AlertDraft, GeofenceEvent, PairClaim } from './evaluate';

/** Sets the pair's or escort's flag; false when another transaction set it first (its alert is raised already). */
async function claim(tx: Tx, target: PairClaim): Promise<boolean> {
  const result = (
    'keepApartPair' in target
      ? await tx.execute(sql`update keep_apart_pairs set meeting = true where id = ${target.keepApartPair} and not meeting returning id`)
      : await tx.execute(sql`update escorts set unescorted = true where id = ${target.escort} and not unescorted returning id`)
  ) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * The first transaction to set the flag raises the alert; the other's draft is dropped. Geofence events keep pointing
 * at their drafts.
 */
export async function claimPairAlerts(tx: Tx, drafts: AlertDraft[], events: GeofenceEvent[]): Promise<{ drafts: AlertDraft[]; events: GeofenceEvent[] }> {
  if (!drafts.some((d) => d.claim)) return { drafts, events };
  // Claimed in one order (pairs, then escorts, by id), so two batches claiming the same rows cannot deadlock.
  const keyOf = (target: PairClaim) => ('keepApartPair' in target ? `a${String(target.keepApartPair).padStart(10, '0')}` : `e${String(target.escort).padStart(10, '0')}`);
  const targets = new Map<string, PairClaim>();
  for (const draft of drafts) if (draft.claim) targets.set(keyOf(draft.claim), draft.claim);
  const won = new Set<string>();
  for (const key of [...targets.keys()].sort()) if (await claim(tx, targets.get(key)!)) won.add(key);
  const kept: AlertDraft[] = [];
  const moved = new Map<number, number>();
  for (const [index, draft] of drafts.entries()) {
    if (draft.claim) {
      const key = keyOf(draft.claim);
      // One alert per pair and batch: a second draft of the same pair in this batch is dropped too.
      if (!won.delete(key)) continue;
    }
    moved.set(index, kept.length);
    kept.push(draft);
  }
  return { drafts: kept, events: events.map((e) => (e.kind === 'start' ? { ...e, draft: moved.get(e.draft)! } : e)) };
}

/** Meetings that ended and escorts together again may alert again next time (cluster mode's flags). */
export async function releasePairs(tx: Tx, endedPairs: number[], rejoined: EscortEvent[]): Promise<void> {
  if (endedPairs.length) await tx.execute(sql`update keep_apart_pairs set meeting = false where meeting and id = any(${sql.param(endedPairs)}::int[])`);
  const escortIds = rejoined.map((e) => e.escortId);
  if (escortIds.length) await tx.execute(sql`update escorts set unescorted = false where unescorted and id = any(${sql.param(escortIds)}::int[])`);
}
