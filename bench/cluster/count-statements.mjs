// Preloaded into a server process to count what it sends to PostgreSQL, printed once a second: statements and BEGINs
// (transactions). Statements per transaction is the round trips a batch of fixes waits for (decision 070).
//   CLUSTER_NODE_ARGS="--import ./bench/cluster/count-statements.mjs" npm run cluster -w @prison/bench -- --runs a
// (the path is taken from the repository root, where scripts/cluster.mjs starts the processes).
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/apps/server/package.json`);
const pg = require('pg');
const query = pg.Client.prototype.query;
const counts = { statements: 0, begins: 0 };
pg.Client.prototype.query = function countedQuery(...args) {
  counts.statements++;
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (typeof text === 'string' && /^\s*begin\b/i.test(text)) counts.begins++;
  return query.apply(this, args);
};
setInterval(() => {
  if (counts.statements) console.log(`statements/s ${counts.statements} begins/s ${counts.begins}`);
  counts.statements = 0;
  counts.begins = 0;
}, 1000).unref();
