// The cost per fix of counting it for /metrics (decision 059): countFixes + fixesStored with prom-client counters
// against the no-op metrics of a server without METRICS_TOKEN, same process, same run. Run:
// npm run metrics -w @prison/bench
import { Counter, Registry } from 'prom-client';
import { countFixes } from '../../apps/server/src/tracking/protocol-metrics';
import { NO_TRACKING_METRICS, type TrackingMetrics } from '../../apps/server/src/tracking/ports';
const registry = new Registry();
registry.setDefaultLabels({ node: 'bench' });
const received = new Counter({ name: 'r', help: 'r', labelNames: ['protocol'], registers: [registry] });
const stored = new Counter({ name: 's', help: 's', registers: [registry] });
const child = received.labels('osmand');
const live: TrackingMetrics = {
  ...NO_TRACKING_METRICS,
  fixesReceived: (_p, n) => child.inc(n),
  fixesStored: (n) => stored.inc(n),
};
async function run(metrics: TrackingMetrics, n: number) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    await countFixes(metrics, 'osmand', 1, async () => 1);
    metrics.fixesStored(1);
  }
  return Number(process.hrtime.bigint() - t) / n;
}
const N = 1_000_000;
await run(live, N);
await run(NO_TRACKING_METRICS, N);
const rows = [];
for (let round = 0; round < 3; round++)
  rows.push({
    round,
    noMetricsNsPerFix: (await run(NO_TRACKING_METRICS, N)).toFixed(0),
    prometheusNsPerFix: (await run(live, N)).toFixed(0),
  });
console.table(rows);
