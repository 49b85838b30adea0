import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine } from '../../test/test-db';
import type { Database } from './client';
import { namedStatement } from './named-statements';

// One statement per name for the whole process (a name is one text on every connection).
const numbered = namedStatement<
  { n: number; label: string; ids: string[] },
  { n: number; label: string; id: string | null }
>(
  'test-numbered',
  sql`select g as n, ${sql.placeholder('label')}::text as label, (${sql.placeholder('ids')}::text[])[g] as id
      from generate_series(1, ${sql.placeholder('n')}::int) as g`,
);

it('refuses a name declared again with another text (the same text again is the same statement)', () => {
  expect(() => namedStatement('test-numbered', sql`select 1`)).toThrow(
    'The statement name test-numbered is taken by another text',
  );
  expect(() => namedStatement('test-other', sql`select 1`)).not.toThrow();
  expect(() => namedStatement('test-other', sql`select 1`)).not.toThrow();
});

describeEachEngine('named statements', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('bind each run its own values, arrays as one value, and answer what db.execute answers', async () => {
    const three = await numbered(database.db, { n: 3, label: 'three', ids: ['a', 'b'] });
    expect(three.rows).toEqual([
      { n: 1, label: 'three', id: 'a' },
      { n: 2, label: 'three', id: 'b' },
      { n: 3, label: 'three', id: null },
    ]);
    const plain = (await database.db.execute(
      sql`select g as n, ${'three'}::text as label, (${sql.param(['a', 'b'])}::text[])[g] as id from generate_series(1, 3) as g`,
    )) as unknown as { rows: unknown[] };
    expect(three.rows).toEqual(plain.rows);
    expect((await numbered(database.db, { n: 1, label: 'one', ids: [] })).rows).toEqual([
      { n: 1, label: 'one', id: null },
    ]);
  });

  it('refuse a run that leaves a value out, sending nothing', async () => {
    await expect(numbered(database.db, { n: 1, label: 'x' } as never)).rejects.toThrow(
      'No value for placeholder "ids"',
    );
  });

  if (engine === 'postgres') {
    it('are prepared once per connection under their name', async () => {
      const prepared = await database.db.transaction(async (tx) => {
        for (let n = 1; n <= 3; n++) await numbered(tx, { n, label: `run ${n}`, ids: [] });
        const rows = (await tx.execute(
          sql`select name from pg_prepared_statements where name like 'test-%' order by name`,
        )) as unknown as { rows: { name: string }[] };
        return rows.rows.map((r) => r.name);
      });
      expect(prepared).toEqual(['test-numbered']);
    });
  }
});
