// wrk, the load generator of the HTTP benches: one thread, N connections, each sending its next request when the last
// one answered; the Lua script's last line is a JSON report (bench/records/wrk-report.lua, bench/cluster/osmand.lua).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface WrkResult {
  requests: number;
  durationUs: number;
  socketErrors: number;
  non2xx: number;
  p50: number;
  p99: number;
}

export interface WrkRun {
  url: string;
  clients: number;
  seconds: number;
  script: string;
  /** Extra request headers, `Name: value`. */
  headers?: string[];
  /** Read by the script. */
  env?: Record<string, string>;
}

/** Runs wrk and reads the script's report; the caller decides what failed requests mean. */
export async function runWrk({ url, clients, seconds, script, headers = [], env = {} }: WrkRun): Promise<WrkResult> {
  const { stdout } = await promisify(execFile)(
    'wrk',
    [
      '--threads=1',
      `--connections=${clients}`,
      `--duration=${seconds}s`,
      '--timeout=10s',
      ...headers.map((header) => `--header=${header}`),
      `--script=${script}`,
      url,
    ],
    { env: { ...process.env, ...env } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as WrkResult;
}

/** The report of a run that must answer every request with a 2xx (a benchmark of reads). */
export function allAnswered(what: string, result: WrkResult): WrkResult {
  if (result.non2xx > 0 || result.socketErrors > 0 || result.requests === 0) {
    throw new Error(`${what}: ${result.non2xx} non-2xx answers, ${result.socketErrors} socket errors`);
  }
  return result;
}
