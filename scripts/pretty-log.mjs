// `npm run cluster` on a terminal: its processes' JSON log lines shown as one server process shows its own there
// (pino-pretty with the server's options, apps/server/src/lib/logger-options.ts; a test holds the two alike).
// pino-pretty is a development dependency: where it is missing, the lines stay as written.

/** The server's PRETTY_OPTIONS (logger-options.ts), repeated because this plain script cannot import TypeScript. */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,reqId,method,route,status,responseTime,account',
  singleLine: true,
};

/**
 * A function that turns one JSON log line into its readable lines (an error's stack spans several); a line that is
 * not JSON (a refusal printed before logging starts) comes back as it is.
 */
export async function prettyLineFormatter() {
  let prettyFactory;
  try {
    ({ prettyFactory } = await import('pino-pretty'));
  } catch {
    return (line) => [line];
  }
  const pretty = prettyFactory({ ...PRETTY_OPTIONS, colorize: true });
  return (line) => (line.startsWith('{') ? pretty(line).replace(/\n+$/, '').split('\n') : [line]);
}
