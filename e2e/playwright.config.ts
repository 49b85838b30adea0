import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 3210);
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-password-123', name: 'e2e-admin' };
/**
 * The second person of the two-person rule (decision 091): an administrator the e2e admin did not make, seeded before
 * the server starts (seed-approver.ts). It approves what the e2e admin asks.
 */
export const E2E_APPROVER = { username: 'e2e-approver', password: 'second person of the run 456', name: 'E2E Approver' };
const dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-'));
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  testDir: './specs',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://localhost:${port}`,
    // A trace of the retry only: recording one for every test cost a fifth of the run's CPU (decision 086), and in CI
    // a failed test is retried once, so its failure still comes with a trace.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
  // One folder per port, so parallel runs do not delete each other's traces.
  outputDir: process.env.E2E_PORT ? path.join(root, '.tmp', `test-results-${port}`) : path.join(root, 'test-results'),
  webServer: {
    command: 'npx tsx e2e/seed-approver.ts && npx tsx apps/server/src/server.ts',
    cwd: root,
    url: `http://localhost:${port}/readyz`,
    // E2E_SERVER_TIMEOUT_MS: a machine shared by many runs can take longer than two minutes to start the server.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 120_000),
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'false',
      // The specs post OsmAnd fixes by device id; the credentials are tested in ingest/device-credentials.test.ts.
      DEVICE_SECRET_REQUIRED: 'false',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      E2E_APPROVER_USERNAME: E2E_APPROVER.username,
      E2E_APPROVER_PASSWORD: E2E_APPROVER.password,
      LOG_LEVEL: 'warn',
      OSMAND_PORT: String(port + 1),
      // A closed network: no background tiles, the site plan is the map, and no page asks another origin
      // for anything (specs/no-other-origin.spec.ts).
      MAP_TILES: 'off',
      // Every spec logs in through the API from 127.0.0.1; the per-IP limit itself is covered by an integration test.
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      E2E: '1',
      // The spec's client is served from another origin, behind a proxy (specs/spec-client.spec.ts).
      ALLOWED_ORIGINS: `http://localhost:${port + 5}`,
      ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    },
  },
});
