// The test tiers: which Vitest file runs where. `fast` needs no database (shared, the web app's logic, the scripts,
// the server's pure units); `integration` runs the route and service suites on the embedded engine; `postgres` runs
// again on PostgreSQL the suites written for both engines (describeEachEngine) and those written for PostgreSQL only;
// `system` starts processes, clusters, brokers or builds of its own. A file's tier follows from what it uses, so a new
// test lands in the right tier without anyone listing it; only `system` is a list, because "starts a whole server"
// cannot be read off an import. `npm run test:fast` runs fast and integration; `npm test` runs every tier.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Files that start servers, clusters, brokers, databases or builds of their own: minutes, not seconds. */
export const SYSTEM_FILES = [
  'apps/server/test/cluster.test.ts',
  'apps/server/test/cluster-alert-feed.test.ts',
  'apps/server/test/cluster-caseload.test.ts',
  'apps/server/test/cluster-kit.test.ts',
  'apps/server/test/database-outage.test.ts',
  'apps/server/test/pgbackrest-pitr.test.ts',
  'apps/server/test/durability.test.ts',
  'apps/server/test/start-under-faults.test.ts',
  'apps/server/test/production-build.test.ts',
  'apps/server/test/data-dir-lock.test.ts',
  'apps/server/test/supervision.test.ts',
  'apps/server/test/nginx-tls.test.ts',
  'apps/server/src/cli/backup-restore-cli.test.ts',
  'scripts/cluster.test.mjs',
  'scripts/release.test.mjs',
];

/** A file that starts the server as a process (`src/server.ts`, the server-process kit) or a cluster (the cluster kit) is a system test. */
const STARTS_SERVER = /src\/server\.ts|from '[^']*\/(cluster-kit|server-process)'/;

/** What a test file imports or calls that opens a database: the test kit's database and app builders. */
const OPENS_DATABASE = /from '[^']*\/(test-app|test-db|tracking-test-kit|caseload-accounts)'|createPglite\(|fromPostgres\(/;
/** Suites that run once per engine. */
const EACH_ENGINE = /describeEachEngine\(|availableEngines\(/;
/** Suites that run on PostgreSQL only (the cluster's building blocks on LISTEN/NOTIFY and advisory locks). */
const POSTGRES_ONLY = /inject\('postgresAdminUrl'\)|createScratchDatabase\(/;

const TEST_FILE = /\.test\.(ts|tsx|mjs)$/;
const ROOTS = ['packages/shared/src', 'apps/web/src', 'apps/server/src', 'apps/server/test', 'scripts'];

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(relative));
    else if (TEST_FILE.test(entry.name)) out.push(relative);
  }
  return out;
}

/** Every Vitest file, relative to the repository root, sorted. */
export function testFiles() {
  return ROOTS.flatMap(walk).sort();
}

/** The tiers a file runs in: one of fast, integration, system; plus postgres when it also runs there. */
export function tiersOf(file) {
  const text = readFileSync(path.join(root, file), 'utf8');
  if (SYSTEM_FILES.includes(file) || STARTS_SERVER.test(text)) return ['system'];
  if (!OPENS_DATABASE.test(text) && !POSTGRES_ONLY.test(text)) return ['fast'];
  const usesPglite = !POSTGRES_ONLY.test(text) || EACH_ENGINE.test(text) || /startTestApp\(|createTestDatabase\(/.test(text);
  const tiers = [];
  if (usesPglite) tiers.push('integration');
  if (EACH_ENGINE.test(text) || POSTGRES_ONLY.test(text)) tiers.push('postgres');
  return tiers;
}

/** The files of one tier, relative to the repository root. */
export function tierFiles(tier, files = testFiles()) {
  return files.filter((file) => tiersOf(file).includes(tier));
}
