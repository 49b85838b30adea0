// What bench/adapters/run.ts and its server processes (node.ts) say to each other over IPC.
import { performance } from 'node:perf_hooks';

export type AdapterKind = 'pubsub' | 'streams' | 'streams-failfast';

export type Command =
  | { type: 'emit'; phase: number; count: number; rate: number; keepTimes: boolean }
  | { type: 'close' };

export type Reply = { type: 'ready' } | { type: 'emitted'; phase: number; startedAt: number; sentAt: number[]; seconds: number };

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between processes of one machine. */
export const now = () => performance.timeOrigin + performance.now();
