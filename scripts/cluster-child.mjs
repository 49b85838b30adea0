// Preloaded (`node --import`) into each server process that `npm run cluster` starts: when the cluster command dies
// without stopping it (kill -9, a closed terminal), the process is handed to another parent and stops itself
// gracefully (SIGTERM, its own shutdown) instead of living on unseen, holding its ports.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1_000).unref();
