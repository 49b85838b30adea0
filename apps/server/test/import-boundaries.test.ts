// Proves the lint rule that keeps the server's house one way (decision 045): the core importing a feature module fails.
import { fileURLToPath } from 'node:url';
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
