// The alerting rules shipped in deploy/ (decision 103): valid for Prometheus (`promtool check rules`, from Debian's
// `prometheus` package), firing when they should (`promtool test rules` on deploy/prometheus-alerts.test.yml), and
// asking only for series this server exposes. Without promtool the suite is skipped, except in CI (CI=true) or with
// REQUIRE_PROMTOOL=1, where a missing promtool fails it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const RULES = path.join(root, 'deploy/prometheus-alerts.yml');
const RULE_TESTS = path.join(root, 'deploy/prometheus-alerts.test.yml');
const required = process.env.CI === 'true' || process.env.REQUIRE_PROMTOOL === '1';

function promtoolBinary(): string | null {
  if (existsSync('/usr/bin/promtool')) return '/usr/bin/promtool';
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || null : null;
}
const promtool = promtoolBinary();

/** The series the server exposes (server-metrics.ts, prison-metrics.ts) or Prometheus itself adds (`up`). */
const EXPOSED = [
  'up',
  'prison_fixes_stored_total',
  'prison_devices',
  'prison_open_critical_alert_oldest_seconds',
  'prison_escalate_after_seconds',
  'prison_escalation_deliveries_total',
  'prison_db_pool_connections',
  'nodejs_eventloop_lag_p99_seconds',
  'prison_backup_last_success_timestamp_seconds',
  'prison_backup_interval_seconds',
  'prison_backup_age_seconds',
];

describe('deploy/prometheus-alerts.yml', () => {
  it('has the eight alerts the operations team asked for, on series the server exposes', () => {
    const text = readFileSync(RULES, 'utf8');
    const alerts = [...text.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]);
    expect(alerts).toEqual([
      'PrisonProcessDown',
      'PrisonNoFixes',
      'PrisonCriticalNotAcknowledged',
      'PrisonEscalationFailing',
      'PrisonDatabasePoolExhausted',
      'PrisonEventLoopLagging',
      'PrisonBackupTooOld',
      'PrisonNoRecentBackup',
    ]);
    // The expressions: every line but comments, names and annotations.
    const exprs = text
      .split('\n')
      .filter((line) => !/^\s*(#|- alert:|summary:|description:)/.test(line))
      .join('\n');
    const asked = new Set([...exprs.matchAll(/\b(?:up|prison_\w+|nodejs_\w+|process_\w+)(?=[{)[\s])/g)].map((m) => m[0]));
    expect([...asked].sort()).toEqual([...EXPOSED].sort());
  });

  it.runIf(!promtool && required)('needs promtool here (CI or REQUIRE_PROMTOOL=1): apt-get install -y prometheus', () => {
    expect(promtool, 'promtool is missing: install Debian\'s prometheus package (apt-get install -y prometheus)').not.toBeNull();
  });

  describe.skipIf(!promtool)('with promtool', () => {
    it('passes promtool check rules', () => {
      const checked = spawnSync(promtool!, ['check', 'rules', RULES], { encoding: 'utf8' });
      expect(checked.status, checked.stdout + checked.stderr).toBe(0);
      expect(checked.stdout).toContain('SUCCESS: 8 rules found');
    });

    it('fires as its unit tests say (promtool test rules)', () => {
      const tested = spawnSync(promtool!, ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
      expect(tested.status, tested.stdout + tested.stderr).toBe(0);
      expect(tested.stdout).toContain('SUCCESS');
    });
  });
});
