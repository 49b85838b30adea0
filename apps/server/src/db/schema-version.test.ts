// What a migration reports and refuses: a database migrated by a newer build (a migration this build does not know,
// newer than its own newest) is refused naming both versions, and nothing is applied; a current one applies nothing.
import { expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine } from '../../test/test-db';
import { buildMigrations, SchemaTooNewError } from './client';

describeEachEngine('the schema version at start', (engine) => {
  it('applies nothing to a current schema, and refuses one migrated by a newer build, naming both versions', async () => {
    const database = await createTestDatabase(engine);
    try {
      const newest = buildMigrations().at(-1)!;
      expect(await database.migrate()).toEqual({ applied: [], schema: newest.tag });

      // A newer build applied migration 0099, dated as the hand-written migrations are (17955000NN000).
      const count = async () => Number((await database.db.execute('select count(*)::int as n from drizzle.__drizzle_migrations') as unknown as { rows: { n: number }[] }).rows?.[0]?.n ?? NaN);
      await database.db.execute(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from a newer build', 1795500099000)`);
      const rows = await count();
      const refused = await database.migrate().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SchemaTooNewError);
      expect((refused as Error).message).toBe(
        `The database schema is at migration 0099 (unknown to this build), newer than this build's newest, ${newest.tag}: ` +
          'a newer build has run on it. Start that build (or a newer one), or restore a backup made by this version; nothing was changed',
      );
      expect(await count()).toBe(rows);
    } finally {
      await database.close();
    }
  });
});
