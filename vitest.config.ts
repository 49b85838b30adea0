import { defineConfig } from 'vitest/config';
import { tierFiles } from './scripts/test-tiers.mjs';

// The tiers (scripts/test-tiers.mjs says which file runs where, and why): `npm run test:fast` runs fast and
// integration, `npm test` every tier. `npx vitest run --project fast` runs one.
// The server's files share their worker's modules (isolate: false): each file otherwise imports the whole server
// again and compiles PGlite's WebAssembly again, which was half of the integration tier's time. A suite's state lives
// in the app it builds, so files do not see each other's.
const server = {
  environment: 'node' as const,
  isolate: false,
  globalSetup: ['apps/server/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Two cores: more workers than that only adds contention for PGlite and argon2.
    maxWorkers: 2,
    projects: [
      // shared, the web app's logic that needs no browser (a few screens rendered to HTML as each role, decision
      // 053), the scripts (the HAProxy configuration, the release, the shards...), and the server's pure units.
      // 20 s, not Vitest's 5: a file's first ESLint run (the lint rules' own tests) loads the parser cold, which takes
      // over 5 s on two busy cores.
      { test: { name: 'fast', include: tierFiles('fast'), environment: 'node', testTimeout: 20_000 } },
      { test: { name: 'integration', include: tierFiles('integration'), ...server } },
      { test: { name: 'postgres', include: tierFiles('postgres'), ...server } },
      { test: { name: 'system', include: tierFiles('system'), ...server } },
    ],
  },
});
