import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: more workers than that only adds contention for PGlite and argon2.
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        // The web app's logic that needs no browser (the pages themselves are tested end to end).
        // A few screens are rendered to HTML (react-dom/server) as each role, to check what they offer (decision 053).
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], environment: 'node' },
      },
      {
        // scripts/cluster.mjs: the HAProxy configuration it writes (deploy/haproxy.cfg.template).
        test: { name: 'scripts', root: 'scripts', include: ['**/*.test.mjs'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
