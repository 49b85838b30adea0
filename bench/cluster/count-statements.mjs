// Preloaded into a server process to count what it sends to PostgreSQL, printed once a second: statements and BEGINs
// (transactions). Statements per transaction is the round trips a batch of fixes waits for (decision 070).
//   CLUSTER_NODE_ARGS="--import ./bench/cluster/count-statements.mjs" npm run cluster -w @prison/bench -- --runs a
// (the path is taken from the repository root, where scripts/cluster.mjs starts the processes).
// With COUNT_STATEMENTS_BY_KIND=1 each line also gives the counts by the statement's first words (the batch's
// statement, `with locked ...` in cluster mode and `with inserted ...` on one process, is one per batch: fixes/s over
// its count is the fixes per batch, decision 075).
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/apps/server/package.json`);
const pg = require('pg');
const query = pg.Client.prototype.query;
const byKind = process.env.COUNT_STATEMENTS_BY_KIND === '1';
let counts = { statements: 0, begins: 0 };
let kinds = new Map();
pg.Client.prototype.query = function countedQuery(...args) {
  counts.statements++;
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (typeof text === 'string' && /^\s*begin\b/i.test(text)) counts.begins++;
  if (byKind && typeof text === 'string') {
    const kind = text.replace(/\s+/g, ' ').trim().slice(0, 40);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return query.apply(this, args);
};
setInterval(() => {
  if (counts.statements) {
    const top = byKind ? ` ${JSON.stringify([...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8))}` : '';
    console.log(`statements/s ${counts.statements} begins/s ${counts.begins}${top}`);
  }
  counts = { statements: 0, begins: 0 };
  kinds = new Map();
}, 1000).unref();
