// The audit trail's hash chain (decision 104): every entry carries a sequence number and an HMAC-SHA256 of its content
// and of the previous entry's hash, keyed by a key derived from the server's key, so only the server can extend the
// chain and any entry changed, removed or inserted in the database shows. One row (audit_chain) holds the head and the
// anchor (the last entry retention deleted) under a MAC of its own; every append locks that row in its transaction,
// so appends from several processes take one total order and the chain never forks.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { readStartKey } from './secret-key';

/** Runs one statement and returns its rows: over Drizzle (the server) or over a plain session (backup, restore). */
export type ChainRunner = <Row = Record<string, unknown>>(statement: SQL) => Promise<Row[]>;

export function drizzleRunner(db: DbOrTx): ChainRunner {
  return async <Row>(statement: SQL) => ((await db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

const dialect = new PgDialect();
/** For code that holds a plain connection: `query(text, params)` in a transaction. */
export function sessionRunner(session: { query<Row>(text: string, params?: unknown[]): Promise<Row[]> }): ChainRunner {
  return <Row>(statement: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(statement);
    return session.query<Row>(text, params);
  };
}

const KEY_INFO = 'prison-control/audit-chain/v1';
const deriveKey = (secretKey: Buffer) => Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), KEY_INFO, 32));
// Until the process's key is set (tests and tools without one), a key of this process alone: its entries do not verify
// elsewhere, which is what such entries deserve.
let chainKey = deriveKey(randomBytes(32));

/** Sets the key the chain is extended and verified with: derived from the server's key (SECRET_KEY or its key file). */
export function useAuditChainKey(secretKey: Buffer): void {
  chainKey = deriveKey(secretKey);
}

/**
 * For the command-line tools: the server's key (SECRET_KEY, else the key file beside DATA_DIR, never created here).
 * Returns false when there is none yet: a data directory no server has started on.
 */
export function useServerAuditKey(env: { SECRET_KEY?: string; DATA_DIR: string }): boolean {
  const start = readStartKey(env);
  if (start.key) useAuditChainKey(start.key);
  return start.key !== null;
}

/** An entry's content as stored: what its hash covers (the id is not: a restore may renumber nothing, but need not). */
export interface ChainedContent extends NewAuditRow {
  seq: number;
  /** UTC, microseconds: YYYY-MM-DDTHH:MM:SS.ffffff (as `atText` reads it back). */
  at: string;
}

/** JSON with object keys sorted at every depth, after a JSON round trip: the same text before storing and after jsonb. */
export function canonicalJson(value: unknown): string {
  const plain = value === undefined ? null : (JSON.parse(JSON.stringify(value ?? null)) as unknown);
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sorted(plain));
}

const hmac = (text: string, key = chainKey) => createHmac('sha256', key).update(text).digest('hex');

export function entryHash(previousHash: string, c: ChainedContent, key = chainKey): string {
  const content = [c.seq, c.at, c.adminId, c.actor, c.ip, c.action, c.entity, c.entityId, c.before ?? null, c.after ?? null];
  return hmac(`${previousHash}\n${canonicalJson(content)}`, key);
}

/** A timestamp as the chain reads it: the database's UTC text with microseconds. */
export const atText = (date: Date) => `${date.toISOString().slice(0, 23)}000`;
const AT_TEXT = sql.raw(`to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`);

export interface ChainState {
  adopted: boolean;
  headSeq: number;
  headHash: string;
  anchorSeq: number;
  anchorHash: string;
  mac: string;
}

const stateMac = (s: Omit<ChainState, 'mac'>, key = chainKey) =>
  hmac(`audit-chain-state\n${s.adopted}\n${s.headSeq}\n${s.headHash}\n${s.anchorSeq}\n${s.anchorHash}`, key);

interface StateRow {
  adopted: boolean;
  head_seq: string | number;
  head_hash: string;
  anchor_seq: string | number;
  anchor_hash: string;
  mac: string;
}
const toState = (r: StateRow): ChainState => ({
  adopted: r.adopted,
  headSeq: Number(r.head_seq),
  headHash: r.head_hash,
  anchorSeq: Number(r.anchor_seq),
  anchorHash: r.anchor_hash,
  mac: r.mac,
});
const STATE_COLUMNS = sql.raw('adopted, head_seq, head_hash, anchor_seq, anchor_hash, mac');

/** Reads the chain's state without locking; null before the first entry was ever chained. */
export async function readChainState(run: ChainRunner): Promise<ChainState | null> {
  const [row] = await run<StateRow>(sql`select ${STATE_COLUMNS} from audit_chain where id = 1`);
  return row ? toState(row) : null;
}

/** Locks the chain's row until the transaction ends (created on first use) and returns its state. */
async function lockChain(run: ChainRunner): Promise<ChainState> {
  const locked = async () => (await run<StateRow>(sql`select ${STATE_COLUMNS} from audit_chain where id = 1 for update`))[0];
  let row = await locked();
  if (!row) {
    await run(sql`insert into audit_chain (id) values (1) on conflict (id) do nothing`);
    row = await locked();
  }
  return toState(row!);
}

async function saveChain(run: ChainRunner, state: Omit<ChainState, 'mac'>): Promise<void> {
  await run(sql`update audit_chain set adopted = ${state.adopted}, head_seq = ${state.headSeq}, head_hash = ${state.headHash},
    anchor_seq = ${state.anchorSeq}, anchor_hash = ${state.anchorHash}, mac = ${stateMac(state)} where id = 1`);
}

interface StoredRow {
  id: string | number;
  seq: string | number | null;
  hash: string | null;
  at: string;
  admin_id: number | null;
  actor: string;
  ip: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
}
const STORED_COLUMNS = sql`id, seq, hash, ${AT_TEXT} as at, admin_id, actor, ip, action, entity, entity_id, before, after`;
const contentOf = (r: StoredRow, seq: number): ChainedContent => ({
  seq,
  at: r.at,
  adminId: r.admin_id,
  actor: r.actor,
  ip: r.ip,
  action: r.action,
  entity: r.entity,
  entityId: r.entity_id,
  before: r.before,
  after: r.after,
});

const ADOPT_BATCH = 1_000;

/**
 * Chains the entries written before the chain existed (oldest id first), once: after that an entry without a place
 * in the chain is one the server did not write. Runs under the chain's lock.
 */
async function adoptLegacyEntries(run: ChainRunner, state: ChainState): Promise<ChainState> {
  let { headSeq, headHash } = state;
  for (;;) {
    const rows = await run<StoredRow>(sql`select ${STORED_COLUMNS} from audit_log where seq is null order by id limit ${ADOPT_BATCH}`);
    if (!rows.length) break;
    const chained = rows.map((row) => {
      headSeq += 1;
      headHash = entryHash(headHash, contentOf(row, headSeq));
      return { id: String(row.id), seq: headSeq, hash: headHash };
    });
    await run(sql`update audit_log a set seq = v.seq, hash = v.hash
      from jsonb_to_recordset(${JSON.stringify(chained)}::jsonb) as v(id bigint, seq bigint, hash text) where a.id = v.id`);
    if (rows.length < ADOPT_BATCH) break;
  }
  const adopted = { ...state, adopted: true, headSeq, headHash };
  await saveChain(run, adopted);
  return adopted;
}

/** Chains the entries written before the chain existed; called at start so no request waits for it. */
export async function adoptAuditTrail(db: DbOrTx): Promise<void> {
  await db.transaction(async (tx) => {
    const run = drizzleRunner(tx);
    const state = await lockChain(run);
    if (!state.adopted) await adoptLegacyEntries(run, state);
  });
}

export interface NewAuditRow {
  adminId: number | null;
  actor: string;
  ip: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

/** Appends one entry at the chain's head. Must run inside a transaction: the lock is held until it commits. */
export async function appendChained(run: ChainRunner, row: NewAuditRow, at = new Date()): Promise<void> {
  let state = await lockChain(run);
  if (!state.adopted) state = await adoptLegacyEntries(run, state);
  const seq = state.headSeq + 1;
  const content: ChainedContent = { seq, at: atText(at), ...row, before: row.before ?? null, after: row.after ?? null };
  const hash = entryHash(state.headHash, content);
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  await run(sql`insert into audit_log (at, admin_id, actor, ip, action, entity, entity_id, before, after, seq, hash)
    values (${at.toISOString()}::timestamptz, ${row.adminId}, ${row.actor}, ${row.ip}, ${row.action}, ${row.entity},
      ${row.entityId}, ${json(row.before)}::jsonb, ${json(row.after)}::jsonb, ${seq}, ${hash})`);
  await saveChain(run, { ...state, headSeq: seq, headHash: hash });
}

/**
 * Deletes, oldest first and at most `batchSize` per transaction, the chained entries written before `cutoff` (up to
 * the first one that is not), moving the anchor to the last deleted entry so verification starts from it.
 */
export async function trimAuditChain(db: DbOrTx, cutoff: Date, batchSize: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const run = drizzleRunner(tx);
      let state = await lockChain(run);
      if (!state.adopted) state = await adoptLegacyEntries(run, state);
      const [kept] = await run<{ seq: string | number | null }>(
        sql`select min(seq) as seq from audit_log where seq is not null and at >= ${cutoff.toISOString()}::timestamptz`,
      );
      const lastOld = kept?.seq == null ? state.headSeq : Number(kept.seq) - 1;
      const upTo = Math.min(lastOld, state.anchorSeq + batchSize);
      if (upTo <= state.anchorSeq) return 0;
      // The anchor is the newest entry deleted; should it be missing already, the newest one there is.
      const [last] = await run<{ seq: string | number; hash: string }>(
        sql`select seq, hash from audit_log where seq is not null and seq <= ${upTo} order by seq desc limit 1`,
      );
      if (!last) return 0;
      const [gone] = await run<{ n: string | number }>(
        sql`with gone as (delete from audit_log where seq is not null and seq <= ${Number(last.seq)} returning 1) select count(*) as n from gone`,
      );
      await saveChain(run, { ...state, anchorSeq: Number(last.seq), anchorHash: last.hash });
      return Number(gone?.n ?? 0);
    });
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

export interface ChainProblem {
  kind: 'changed' | 'removed' | 'inserted' | 'state';
  /** The entry's place in the chain, when it has one. */
  seq: number | null;
  /** The entry's id, when there is an entry to name. */
  id: string | null;
  message: string;
}

export interface ChainReport {
  intact: boolean;
  /** Entries checked in the chain. */
  entries: number;
  /** The anchor (0: nothing was ever deleted) and the head, as the chain's state says. */
  anchorSeq: number;
  headSeq: number;
  headHash: string;
  /** Entries written before the chain existed, chained at the server's next start. */
  awaitingAdoption: number;
  /** The first problems, oldest first (at most 100); `problemCount` counts them all. */
  problems: ChainProblem[];
  problemCount: number;
}

const VERIFY_PAGE = 2_000;
const MAX_PROBLEMS = 100;

/** Checks the whole chain from its anchor to its head and names the entries that were changed, removed or inserted. */
export async function verifyAuditChain(run: ChainRunner, key = chainKey): Promise<ChainReport> {
  const problems: ChainProblem[] = [];
  let problemCount = 0;
  const problem = (p: ChainProblem) => {
    problemCount += 1;
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const stored = await readChainState(run);
  const state = stored ?? { adopted: false, headSeq: 0, headHash: '', anchorSeq: 0, anchorHash: '', mac: '' };
  if (stored && stateMac(stored, key) !== stored.mac) {
    problem({ kind: 'state', seq: null, id: null, message: 'the chain state (its head and anchor) was changed outside the server, or is sealed with another key' });
  }
  let expectedSeq = state.anchorSeq + 1;
  let previousHash = state.anchorHash;
  let entries = 0;
  let after = -1;
  for (;;) {
    const rows = await run<StoredRow>(
      sql`select ${STORED_COLUMNS} from audit_log where seq is not null and seq > ${after} order by seq limit ${VERIFY_PAGE}`,
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      const id = String(row.id);
      after = seq;
      entries += 1;
      if (seq < expectedSeq) {
        problem({ kind: 'inserted', seq, id, message: `entry #${seq} (id ${id}) lies before the chain's anchor #${state.anchorSeq}: inserted` });
        continue;
      }
      if (seq > expectedSeq) {
        const range = seq - 1 === expectedSeq ? `#${expectedSeq} was` : `#${expectedSeq} to #${seq - 1} were`;
        problem({ kind: 'removed', seq: expectedSeq, id: null, message: `entry ${range} removed (the next one left is #${seq}, id ${id})` });
        // Go on from what is there: the entry after a removal cannot match its lost predecessor, and says so once.
        previousHash = row.hash ?? '';
        expectedSeq = seq + 1;
        continue;
      }
      if (row.hash !== entryHash(previousHash, contentOf(row, seq), key)) {
        problem({ kind: 'changed', seq, id, message: `entry #${seq} (id ${id}, ${row.action} ${row.entity} at ${row.at}Z) was changed or replaced: its hash does not match its content and the entry before it` });
      }
      previousHash = row.hash ?? '';
      expectedSeq = seq + 1;
    }
    if (rows.length < VERIFY_PAGE) break;
  }
  const lastSeq = expectedSeq - 1;
  if (lastSeq < state.headSeq) {
    const range = lastSeq + 1 === state.headSeq ? `#${state.headSeq} was` : `#${lastSeq + 1} to #${state.headSeq} were`;
    problem({ kind: 'removed', seq: lastSeq + 1, id: null, message: `the newest entry ${range} removed (the chain's head is #${state.headSeq})` });
  } else if (lastSeq > state.headSeq) {
    problem({ kind: 'inserted', seq: state.headSeq + 1, id: null, message: `entries after the chain's head #${state.headSeq} were inserted (up to #${lastSeq})` });
  } else if (entries > 0 && previousHash !== state.headHash) {
    problem({ kind: 'changed', seq: lastSeq, id: null, message: `the newest entry #${lastSeq} does not match the chain's head` });
  }
  const [counted] = await run<{ n: string | number }>(sql`select count(*) as n from audit_log where seq is null`);
  const unchained = Number(counted?.n ?? 0);
  let awaitingAdoption = 0;
  if (!state.adopted) awaitingAdoption = Number(unchained);
  else if (Number(unchained) > 0) {
    const rows = await run<StoredRow>(sql`select ${STORED_COLUMNS} from audit_log where seq is null order by id limit ${MAX_PROBLEMS}`);
    for (const row of rows) {
      problem({ kind: 'inserted', seq: null, id: String(row.id), message: `entry id ${String(row.id)} (${row.action} ${row.entity} at ${row.at}Z) was inserted outside the chain` });
    }
    problemCount += Number(unchained) - rows.length;
  }
  return {
    intact: problemCount === 0,
    entries,
    anchorSeq: state.anchorSeq,
    headSeq: state.headSeq,
    headHash: state.headHash,
    awaitingAdoption,
    problems,
    problemCount,
  };
}

/** The report in a few lines: the first line says intact or not. */
export function describeChainReport(report: ChainReport): string[] {
  const span = report.entries ? `entries #${report.anchorSeq + 1} to #${report.headSeq}` : 'no entries';
  const lines = report.intact
    ? [`The audit chain is intact: ${report.entries} ${span.replace(/^entries /, 'entries, ')}, head ${report.headHash.slice(0, 16) || '(empty)'}.`]
    : [`The audit chain is BROKEN: ${report.problemCount} problem${report.problemCount === 1 ? '' : 's'}; the first: ${report.problems[0]?.message}.`];
  if (report.anchorSeq > 0) lines.push(`Entries up to #${report.anchorSeq} were deleted by retention; the chain starts from their signed anchor.`);
  if (report.awaitingAdoption > 0) lines.push(`${report.awaitingAdoption} entries written before the chain existed are chained at the server's next start.`);
  for (const p of report.problems.slice(1)) lines.push(`  ${p.message}`);
  if (report.problemCount > report.problems.length) lines.push(`  ... and ${report.problemCount - report.problems.length} more`);
  return lines;
}
