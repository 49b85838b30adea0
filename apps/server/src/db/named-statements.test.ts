import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine } from '../../test/test-db';
import type { Database } from './client';
import { executeNamed } from './named-statements';

describeEachEngine('named statements', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('answer what db.execute answers', async () => {
    const query = (n: number) => sql`select g as n, ${`row ${n}`}::text as label from generate_series(1, ${n}::int) as g`;
    const named = await executeNamed<{ n: number; label: string }>(database.db, 'test-same-answer', query(3));
    const plain = (await database.db.execute(query(3))) as unknown as { rows: unknown[] };
    expect(named.rows).toEqual(plain.rows);
    expect(named.rows).toEqual([1, 2, 3].map((n) => ({ n, label: 'row 3' })));
  });

  if (engine === 'postgres') {
    it('are prepared once per connection, one name per text, and never more than 16 texts per name', async () => {
      const prepared = await database.db.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) await executeNamed(tx, 'test-once', sql`select ${i}::int as i`);
        // 20 texts under one name: the first 16 get names of their own, the rest run unnamed.
        for (let i = 0; i < 20; i++) await executeNamed(tx, 'test-texts', sql.raw(`select ${i} as i`));
        const rows = (await tx.execute(sql`select name from pg_prepared_statements where name like 'test-%' order by name`)) as unknown as { rows: { name: string }[] };
        return rows.rows.map((r) => r.name);
      });
      expect(prepared.filter((name) => name.startsWith('test-once'))).toEqual(['test-once-1']);
      expect(prepared.filter((name) => name.startsWith('test-texts'))).toHaveLength(16);
    });
  }
});
