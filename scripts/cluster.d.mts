// Types of scripts/cluster.mjs, for bench/cluster (TypeScript).
import type { ChildProcess } from 'node:child_process';

export const TEMPLATE: string;
export const DEFAULT_DATABASE_URL: string;
export const DEFAULT_REDIS_URL: string;

export interface ClusterNodeAddress {
  name: string;
  address: string;
  port: number;
  osmandPort: number;
}

export function haproxyConfig(options: { host: string; port: number; osmandPort: number; statsPort: number; nodes: ClusterNodeAddress[] }): string;
export function ensureDatabase(url: string): Promise<boolean>;

export interface ClusterOptions {
  processes: number;
  host?: string;
  port?: number;
  osmandPort?: number;
  statsPort?: number;
  nodePort?: number;
  nodeOsmandPort?: number;
  databaseUrl: string;
  redisUrl?: string | null;
  demo?: boolean;
  balancer?: boolean;
  env?: Record<string, string>;
  /** Show the processes' JSON log lines readable (pino-pretty), as on a terminal. */
  pretty?: boolean;
  write?: (line: string) => void;
  onExit?: (name: string, code: number | null, signal: string | null) => void;
}

export interface Cluster {
  nodes: (ClusterNodeAddress & { pid: number; child: ChildProcess })[];
  haproxy: { pid: number; child: ChildProcess; configFile: string } | null;
  url: string;
  osmandUrl: string;
  statsUrl: string | null;
  stop(): Promise<void>;
}

export function startCluster(options: ClusterOptions): Promise<Cluster>;

/** Why a server process stopped, from one line of its output, or null. */
export function stopReason(line: string): string | null;
