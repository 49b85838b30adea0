// The tiers hold every Vitest file: each runs in exactly one of fast, integration or system (postgres beside
// integration when it is written for both engines), the system list names files that exist, and a file's tier follows
// what it uses, so a new test that opens a database never lands in the fast loop.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_FILES, testFiles, tierFiles, tiersOf } from './test-tiers.mjs';

const root = path.resolve(import.meta.dirname, '..');

describe('test tiers', () => {
  const files = testFiles();

  it('put every test file in exactly one of fast, integration and system', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const main = tiersOf(file).filter((tier) => tier !== 'postgres');
      // A PostgreSQL-only suite (the cluster's building blocks) runs in the postgres tier alone.
      if (main.length === 0) expect(tiersOf(file), file).toEqual(['postgres']);
      else expect(main, file).toHaveLength(1);
    }
  });

  it('list only system files that exist', () => {
    for (const file of SYSTEM_FILES) expect(existsSync(path.join(root, file)), file).toBe(true);
  });

  it('keep the database and the servers out of the fast tier', () => {
    const fast = tierFiles('fast');
    expect(fast).toContain('packages/shared/src/text.test.ts');
    expect(fast).toContain('apps/server/src/tracking/geofence-engine.test.ts');
    expect(fast).not.toContain('apps/server/test/route-access.test.ts');
    for (const file of SYSTEM_FILES) expect(fast).not.toContain(file);
    expect(tierFiles('integration')).toContain('apps/server/test/route-access.test.ts');
    // Both engines: the embedded one in integration, PostgreSQL in postgres.
    expect(tiersOf('apps/server/src/modules/cells/cells.test.ts')).toEqual(['integration', 'postgres']);
    expect(tiersOf('apps/server/src/cluster/cluster.test.ts')).toEqual(['postgres']);
    // Starts the server as a process, though it opens no test database itself.
    expect(tiersOf('apps/server/test/private-data-dir.test.ts')).toEqual(['system']);
  });
});
