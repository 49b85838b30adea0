// Preloaded into a server process to print its own CPU (user + system, ms) each second: what it costs while idle,
// warming up or under load, beside what the bench measures for the whole run.
//   CLUSTER_NODE_ARGS="--import ./bench/cluster/cpu-per-second.mjs" npm run cluster -w @prison/bench -- --runs a
// (the path is taken from the repository root, where scripts/cluster.mjs starts the processes).
let last = process.cpuUsage();
setInterval(() => {
  const now = process.cpuUsage();
  const ms = (now.user - last.user + now.system - last.system) / 1000;
  last = now;
  console.log(`cpu ms/s ${ms.toFixed(0)} ${new Date().toISOString().slice(11, 19)}`);
}, 1000).unref();
