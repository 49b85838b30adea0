// Proves the lint rule that keeps the server's house one way (decision 045): the core importing a feature module fails;
// and that no import cycle runs through the tracking core, type-only imports counted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}eslint.config.js` });
const RULE = 'no-restricted-imports';

/** The no-restricted-imports errors ESLint reports for this code as if it were the file at `filePath`. */
async function boundaryErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message);
}

describe('import boundaries: the core imports no feature module', () => {
  it.each([
    ['apps/server/src/tracking/x.ts', "import { insertAlerts } from '../modules/alerts/alert-store';\nexport const x = insertAlerts;\n"],
    ['apps/server/src/tracking/x.ts', "import type { EscortRef } from '../modules/escorts/escort-service';\nexport type X = EscortRef;\n"],
    ['apps/server/src/cluster/x.ts', "export { invalidatePrisonerCaches } from '../modules/prisoners/prisoner-repository';\n"],
    ['apps/server/src/plugins/x.ts', "import { apiModules } from '../modules';\nexport const x = apiModules;\n"],
    ['apps/server/src/sessions/x.ts', "import { createAdmin } from '../modules/admin/admin-service';\nexport const x = createAdmin;\n"],
    ['apps/server/src/lib/x.ts', "import { listStoredGeofences } from '../modules/geofences/geofence-service';\nexport const x = listStoredGeofences;\n"],
    ['apps/server/src/db/x.ts', "import { listActivePairs } from '../modules/keep-apart/keep-apart-service';\nexport const x = listActivePairs;\n"],
    ['apps/server/src/tracking/deep/x.ts', "import { startOsmandPort } from '../../modules/ingest/osmand-port';\nexport const x = startOsmandPort;\n"],
  ])('%s importing a module is an error', async (filePath, code) => {
    const errors = await boundaryErrors(code, filePath);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('decision 045');
  });

  it.each([
    ['apps/server/src/composition.ts', "import { insertAlerts } from './modules/alerts/alert-store';\nexport const x = insertAlerts;\n"],
    ['apps/server/src/modules/x/x.ts', "import { insertAlerts } from '../alerts/alert-store';\nimport type { NewAlert } from '../../tracking/ports';\nexport const x = insertAlerts;\nexport type X = NewAlert;\n"],
    ['apps/server/src/seed/x.ts', "import { createCell } from '../modules/cells/cell-service';\nexport const x = createCell;\n"],
    ['apps/server/src/tracking/x.ts', "import { hashToken } from '../sessions/session-service';\nexport const x = hashToken;\n"],
  ])('%s may import it', async (filePath, code) => {
    expect(await boundaryErrors(code, filePath)).toEqual([]);
  });

  it('the server as it stands has no back import', async () => {
    const results = await eslint.lintFiles(['apps/server/src']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(found).toEqual([]);
  }, 60_000);
});

/** The file a relative import names (`./x` as x.ts or x/index.ts), or null for a package or a file not in `files`. */
function importedFile(from: string, specifier: string, files: Map<string, string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.join(path.posix.dirname(from), specifier);
  return [`${base}.ts`, `${base}/index.ts`].find((file) => files.has(file)) ?? null;
}

/**
 * The import cycles among `files` (path -> source) that pass through a file under `through`, each as its files in
 * import order. TypeScript's own reading of the imports: `import type` and `export ... from` count as any import does.
 */
function importCycles(files: Map<string, string>, through: string): string[][] {
  const imports = new Map<string, string[]>();
  for (const [file, code] of files) {
    const named = ts.preProcessFile(code, true, true).importedFiles.map((i) => importedFile(file, i.fileName, files));
    imports.set(file, [...new Set(named.filter((f): f is string => f !== null))]);
  }
  const cycles: string[][] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const cycle = trail.slice(at);
      if (cycle.some((f) => f.startsWith(through))) cycles.push(cycle);
      return;
    }
    if (done.has(file)) return;
    trail.push(file);
    for (const next of imports.get(file)!) visit(next);
    trail.pop();
    done.add(file);
  };
  for (const file of [...files.keys()].sort()) visit(file);
  return cycles;
}

/** Every source file of the server (tests left out), by its path from apps/server/src. */
function serverSources(): Map<string, string> {
  const src = `${root}apps/server/src`;
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(`${src}/${dir}`, { withFileTypes: true })) {
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) files.set(file, readFileSync(`${src}/${file}`, 'utf8'));
    }
  };
  if (existsSync(src)) walk('');
  return files;
}

describe('import cycles: none runs through the tracking core', () => {
  it('a type-only cycle through tracking is found', () => {
    const files = new Map([
      ['tracking/ports.ts', "import type { TrackingService } from './tracking-service';\nexport type Open = (t: TrackingService) => void;\n"],
      ['tracking/tracking-service.ts', "import type { Open } from './ports';\nexport class TrackingService { open?: Open; }\n"],
      ['tracking/pipeline/plan.ts', "import type { Open } from '../ports';\nexport type Plan = Open;\n"],
    ]);
    expect(importCycles(files, 'tracking/')).toEqual([['tracking/ports.ts', 'tracking/tracking-service.ts']]);
  });

  it('a cycle elsewhere is not this test\'s to refuse, and one-way imports are no cycle', () => {
    const files = new Map([
      ['modules/a/x.ts', "import type { Y } from './y';\nexport type X = Y;\n"],
      ['modules/a/y.ts', "import type { X } from './x';\nexport type Y = X | 1;\n"],
      ['tracking/z.ts', "import type { Y } from '../modules/a/y';\nexport type Z = Y;\n"],
    ]);
    expect(importCycles(files, 'tracking/')).toEqual([]);
  });

  it('the server as it stands has none', () => {
    const files = serverSources();
    expect(files.size).toBeGreaterThan(100);
    expect(importCycles(files, 'tracking/')).toEqual([]);
  });
});
