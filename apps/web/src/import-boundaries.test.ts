// Proves the lint rules that hold the web app's boundaries: a feature reaches another only through its public entry
// (index.ts), lib/ components/ map/ import no feature, and no import cycle. Each case is linted as if it were the
// file at that path, against the real files it imports.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}eslint.config.js` });
const BOUNDARY = 'import-x/no-restricted-paths';
const CYCLE = 'import-x/no-cycle';

/** The boundary and cycle errors ESLint reports for this code as if it were the file at `filePath`. */
async function boundaryErrors(code: string, filePath: string): Promise<{ rule: string; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}apps/web/src/${filePath}` });
  return result!.messages
    .filter((m) => (m.ruleId === BOUNDARY || m.ruleId === CYCLE) && m.severity === 2)
    .map((m) => ({ rule: m.ruleId!, message: m.message }));
}

const uses = (specifier: string, name: string) => `import { ${name} } from '${specifier}';\nexport const x = ${name};\n`;

describe("web boundaries: a feature reaches another only through its public entry", () => {
  it.each([
    ['features/replay/x.tsx', uses('../location-history/use-track-player', 'positionAt')],
    ['features/prisoner-details/x.tsx', uses('../alerts/components/alert-card', 'AlertCard')],
    ['features/prisoner-details/x.tsx', uses('../alerts/index.ts/../components/alert-card', 'AlertCard')],
    ['features/alerts/components/x.tsx', uses('../../incidents/open-incident-dialog', 'OpenIncidentDialog')],
    ['features/home/deep/x.tsx', uses('../../../features/counts/latest-counts', 'LatestCounts')],
    ['features/live-map/x.ts', "export { useReaders } from '../readers/api';\n"],
    ['features/replay/x.ts', "import type { HistoryRange } from '../location-history/api';\nexport type X = HistoryRange;\n"],
  ])("%s importing another feature's internals is an error", async (filePath, code) => {
    const errors = await boundaryErrors(code, filePath);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.rule).toBe(BOUNDARY);
    expect(errors[0]!.message).toContain('public entry');
  });

  it.each([
    ['lib/x.ts', uses('../features/alerts', 'AlertCard')],
    ['components/x.tsx', uses('../features/alerts/alerts-page', 'AlertsPage')],
    ['components/ui/x.tsx', uses('../../features/incidents', 'OpenIncidentDialog')],
    ['map/x.ts', uses('../features/live-map/tracked-rows', 'trackedRows')],
  ])('%s (shared code) importing a feature is an error', async (filePath, code) => {
    const errors = await boundaryErrors(code, filePath);
    expect(errors.map((e) => e.rule)).toEqual([BOUNDARY]);
    expect(errors[0]!.message).toContain('imports no feature');
  });

  it.each([
    ['features/replay/x.tsx', uses('../incidents', 'OpenIncidentDialog')],
    ['features/replay/x.tsx', uses('../incidents/index', 'OpenIncidentDialog')],
    ['features/live-map/components/x.tsx', uses('../api/geofences', 'useGeofences')],
    ['features/replay/x.tsx', uses('../../lib/time-range', 'formatPlayerTime')],
    ['features/replay/x.tsx', uses('../../components/track-player', 'TrackPlayer')],
    ['app/x.tsx', uses('../features/alerts/alerts-page', 'AlertsPage')],
  ])('%s may import it', async (filePath, code) => {
    expect(await boundaryErrors(code, filePath)).toEqual([]);
  });
});

describe('web boundaries: no import cycle', () => {
  it.each([
    // The track player imports the time helpers: the helpers importing the player closes a loop.
    ['lib/time-range.ts', uses('../components/track-player', 'TrackPlayer')],
    // The replay page imports its clock.
    ['features/replay/replay-clock.ts', uses('./replay-page', 'ReplayPage')],
    // Through public entries: alerts' entry -> the alert card -> incidents' entry -> this dialog.
    ['features/incidents/open-incident-dialog.tsx', uses('../alerts', 'AlertCard')],
  ])('%s closing a loop is an error', async (filePath, code) => {
    const errors = await boundaryErrors(code, filePath);
    expect(errors.map((e) => e.rule)).toEqual([CYCLE]);
  });
});

describe('web boundaries: the app as it stands', () => {
  it('has no import into another feature, no feature in shared code and no cycle', async () => {
    const results = await eslint.lintFiles(['apps/web/src']);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === BOUNDARY || m.ruleId === CYCLE).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(found).toEqual([]);
  }, 90_000);
});
