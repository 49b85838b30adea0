// How the server's log is written (decision 103). Off a terminal, for journald and log collectors: one JSON object per
// line with an ISO-8601 UTC `time` and the `level` by name. On a terminal, readable lines through pino-pretty, a
// development dependency: an installation without it (the release archive) writes the JSON lines there too.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * pino-pretty's options, shared with `npm run cluster` (which formats its processes' JSON lines the same way on a
 * terminal): one line per entry; the request line's fields are already in its message.
 */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,reqId,method,route,status,responseTime,account',
  singleLine: true,
} as const;

/** pino's `timestamp` option: the time as ISO-8601 UTC text, not epoch milliseconds. */
export const isoTime = () => `,"time":"${new Date().toISOString()}"`;

/** The level by name (`"info"`), not pino's number (30). */
export const levelName = (label: string) => ({ level: label });

/** Whether pino-pretty is installed here (a development checkout; not the release archive). */
function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** The logger of the server process: readable on a terminal where pino-pretty is installed, JSON lines otherwise. */
export function loggerOptions(level: string, onTerminal: boolean): LoggerOptions {
  if (onTerminal && prettyInstalled()) return { level, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } };
  return { level, timestamp: isoTime, formatters: { level: levelName } };
}
