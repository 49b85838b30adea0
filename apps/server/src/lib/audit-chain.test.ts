// The audit trail's hash chain (decision 104): a fresh trail verifies; an entry edited, deleted or inserted in the
// database is named; concurrent appends, from one process or from two connection pools as a cluster's processes, keep
// one unbroken chain; retention leaves a signed anchor the rest verifies from; entries of a version before the chain
// are chained once; a key other than the server's neither verifies nor extends it.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fromPostgres, type Database } from '../db/client';
import { createScratchDatabase, createTestDatabase, describeEachEngine, describeOnPostgres } from '../../test/test-db';
import { deleteExpiredAudit } from '../tracking/retention-records';
import { recordAudit } from './audit';
import { adoptAuditTrail, appendChained, drizzleRunner, useAuditChainKey, verifyAuditChain } from './audit-chain';

const serverKey = randomBytes(32);
const who = { adminId: null, actor: 'chain-test', ip: '10.1.2.3' };
const DAY = 86_400_000;

async function write(db: Database['db'], count: number, label = 'e') {
  for (let i = 0; i < count; i++) {
    await recordAudit(db, who, { action: 'prisoner.update', entity: 'prisoner', entityId: `${label}${i}`, before: { b: 1, a: [1, { z: 'x', y: null }] }, after: { note: `é ${i}` } });
  }
}

const verify = (db: Database['db']) => verifyAuditChain(drizzleRunner(db));
const seqs = async (db: Database['db']) =>
  ((await db.execute(sql`select seq from audit_log order by seq`)) as unknown as { rows: { seq: string | number }[] }).rows.map((r) => Number(r.seq));

/** A test database of the engine for the suite, with the server's chain key in use. */
function chainDatabase(engine: Parameters<typeof createTestDatabase>[0]): () => Database {
  let database: Database;
  beforeAll(async () => {
    useAuditChainKey(serverKey);
    database = await createTestDatabase(engine);
  }, 60_000);
  afterAll(() => database?.close());
  return () => database;
}

describeEachEngine('audit hash chain', (engine) => {
  const database = chainDatabase(engine);

  it('verifies a fresh trail, entry after entry', async () => {
    expect(await verify(database().db)).toMatchObject({ intact: true, entries: 0, headSeq: 0 });
    await write(database().db, 6);
    const report = await verify(database().db);
    expect(report).toMatchObject({ intact: true, entries: 6, headSeq: 6, anchorSeq: 0, problemCount: 0 });
    expect(await seqs(database().db)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('names the entry edited in the database, and verifies again once it is put back', async () => {
    const db = database().db;
    await db.execute(sql`update audit_log set after = '{"note": "forged"}'::jsonb where seq = 3`);
    const report = await verify(db);
    expect(report.intact).toBe(false);
    expect(report.problems[0]).toMatchObject({ kind: 'changed', seq: 3 });
    expect(report.problems[0]!.message).toContain('entry #3');
    await db.execute(sql`update audit_log set after = '{"note": "é 2"}'::jsonb where seq = 3`);
    expect((await verify(db)).intact).toBe(true);
    // Only the time changed, by a microsecond.
    await db.execute(sql`update audit_log set at = at + interval '1 microsecond' where seq = 5`);
    expect((await verify(db)).problems[0]).toMatchObject({ kind: 'changed', seq: 5 });
    await db.execute(sql`update audit_log set at = at - interval '1 microsecond' where seq = 5`);
    expect((await verify(db)).intact).toBe(true);
  });

  it('names an entry deleted from the middle and one deleted from the end', async () => {
    const db = database().db;
    await db.execute(sql`create temporary table kept as select * from audit_log where seq in (4, 6)`);
    await db.execute(sql`delete from audit_log where seq = 4`);
    let report = await verify(db);
    expect(report.problems[0]).toMatchObject({ kind: 'removed', seq: 4 });
    expect(report.problems[0]!.message).toContain('#4 was removed');
    await db.execute(sql`insert into audit_log select * from kept where seq = 4`);
    expect((await verify(db)).intact).toBe(true);
    await db.execute(sql`delete from audit_log where seq = 6`);
    report = await verify(db);
    expect(report.problems[0]).toMatchObject({ kind: 'removed', seq: 6 });
    await db.execute(sql`insert into audit_log select * from kept where seq = 6`);
    await db.execute(sql`drop table kept`);
    expect((await verify(db)).intact).toBe(true);
  });

  it('names an entry inserted outside the chain, and one inserted with a hash of another key', async () => {
    const db = database().db;
    const inserted = (await db.execute(sql`insert into audit_log (actor, action, entity) values ('intruder', 'login', 'session') returning id`)) as unknown as { rows: { id: string | number }[] };
    const id = String(inserted.rows[0]!.id);
    let report = await verify(db);
    expect(report.problems[0]).toMatchObject({ kind: 'inserted', id });
    expect(report.problems[0]!.message).toContain(`entry id ${id}`);
    await db.execute(sql`delete from audit_log where id = ${id}`);
    expect((await verify(db)).intact).toBe(true);

    // Someone with the database but not the key extends the chain: the entry is named, and the server's next entry
    // is chained after it, so the forgery stays visible.
    useAuditChainKey(randomBytes(32));
    try {
      await database().db.transaction((tx) => appendChained(drizzleRunner(tx), { ...who, action: 'forged', entity: 'x', entityId: null, before: null, after: null }));
    } finally {
      useAuditChainKey(serverKey);
    }
    report = await verify(db);
    expect(report.problems.map((p) => p.kind)).toContain('changed');
    expect(report.problems.find((p) => p.kind === 'changed')).toMatchObject({ seq: 7 });
    await db.execute(sql`delete from audit_log where seq = 7`);
  });
});

describeEachEngine('audit hash chain under concurrent writes, retention and an upgrade', (engine) => {
  const database = chainDatabase(engine);

  it('chains entries written before the chain existed once, at start, and then verifies', async () => {
    const db = database().db;
    await db.execute(sql`insert into audit_log (at, actor, action, entity, after) values
      (now() - interval '2 days', 'old', 'create', 'prisoner', '{"n": 1}'), (now() - interval '1 day', 'old', 'update', 'prisoner', null)`);
    const before = await verify(db);
    expect(before).toMatchObject({ intact: true, awaitingAdoption: 2, entries: 0 });
    await adoptAuditTrail(db);
    await adoptAuditTrail(db);
    expect(await verify(db)).toMatchObject({ intact: true, entries: 2, headSeq: 2, awaitingAdoption: 0 });
  });

  it('keeps one unbroken chain when many entries are written at once', async () => {
    const db = database().db;
    await Promise.all(Array.from({ length: 25 }, (_, i) => recordAudit(db, who, { action: 'note.create', entity: 'note', entityId: i })));
    // Also inside transactions of their own that do other work first.
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await recordAudit(tx, who, { action: 'note.update', entity: 'note', entityId: i });
        }),
      ),
    );
    const report = await verify(db);
    expect(report).toMatchObject({ intact: true, entries: 32, headSeq: 32 });
    expect(await seqs(db)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it('retention deletes the oldest entries behind a signed anchor; the rest verifies, and a later edit still shows', async () => {
    const db = database().db;
    const now = Date.now();
    // Entries of 400 and 380 days ago, then one of 10 days ago (appended in that order, as time went).
    for (const daysAgo of [400, 390, 380, 10]) {
      await db.transaction((tx) => appendChained(drizzleRunner(tx), { ...who, action: 'old.entry', entity: 'note', entityId: String(daysAgo), before: null, after: null }, new Date(now - daysAgo * DAY)));
    }
    // The earlier entries of this file were written now: move them back two years, so they go with the three of over a year.
    await db.execute(sql`update audit_log set at = at - interval '730 days' where seq <= 32`);
    expect((await verify(db)).problems[0]).toMatchObject({ kind: 'changed', seq: 1 });
    // Retention cannot tell a forged time from a real one; what it deletes is gone, and the rest verifies from the anchor.
    const deleted = await deleteExpiredAudit(db, 365, { batchSize: 7, now: new Date(now) });
    expect(deleted).toBe(35);
    const report = await verify(db);
    expect(report).toMatchObject({ intact: true, anchorSeq: 35, headSeq: 37, entries: 2 });
    const left = (await db.execute(sql`select action from audit_log order by seq`)) as unknown as { rows: { action: string }[] };
    expect(left.rows.map((r) => r.action)).toEqual(['old.entry', 'retention.delete']);
    await db.execute(sql`update audit_log set entity_id = 'x' where seq = 36`);
    expect((await verify(db)).problems[0]).toMatchObject({ kind: 'changed', seq: 36 });
    await db.execute(sql`update audit_log set entity_id = '10' where seq = 36`);
    // An anchor moved by hand (to hide deleted entries) breaks the chain state's seal.
    await db.execute(sql`update audit_chain set anchor_seq = 34`);
    expect((await verify(db)).problems[0]).toMatchObject({ kind: 'state' });
    await db.execute(sql`update audit_chain set anchor_seq = 35`);
    expect((await verify(db)).intact).toBe(true);
  });

  it('does not verify with another key', async () => {
    const report = await verifyAuditChain(drizzleRunner(database().db), randomBytes(32));
    expect(report.intact).toBe(false);
    expect(report.problems[0]).toMatchObject({ kind: 'state' });
  });
});

describeOnPostgres('audit hash chain across processes', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pools: Database[] = [];
  beforeAll(async () => {
    useAuditChainKey(serverKey);
    scratch = await createScratchDatabase('prison_chain');
    pools = [fromPostgres(scratch.url, 5), fromPostgres(scratch.url, 5)];
  }, 60_000);
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await scratch?.drop();
  });

  it('two connection pools writing at once keep one unbroken chain', async () => {
    await Promise.all(
      pools.flatMap((pool, p) => Array.from({ length: 20 }, (_, i) => recordAudit(pool.db, who, { action: 'note.create', entity: 'note', entityId: `${p}-${i}` }))),
    );
    const report = await verify(pools[0]!.db);
    expect(report).toMatchObject({ intact: true, entries: 40, headSeq: 40 });
    expect(await seqs(pools[1]!.db)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});
