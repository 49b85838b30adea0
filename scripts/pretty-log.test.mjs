// `npm run cluster` on a terminal shows its processes' JSON lines as one server process shows its own there: the same
// pino-pretty options, one readable line per entry with the process's name in front; and the reason a process stopped
// is still read off its JSON line, whose level is now a name.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loggerOptions, PRETTY_OPTIONS as SERVER_PRETTY_OPTIONS } from '../apps/server/src/lib/logger-options.ts';
import { stopReason } from './cluster.mjs';
import { PRETTY_OPTIONS, prettyLineFormatter } from './pretty-log.mjs';

describe('the cluster on a terminal', () => {
  it("formats with the server's own pino-pretty options", () => {
    expect(PRETTY_OPTIONS).toEqual(SERVER_PRETTY_OPTIONS);
    // A server on a terminal where the development dependencies are installed (here) uses them; off one, JSON lines.
    expect(loggerOptions('info', true)).toEqual({ level: 'info', transport: { target: 'pino-pretty', options: SERVER_PRETTY_OPTIONS } });
    expect(loggerOptions('info', false)).not.toHaveProperty('transport');
  });

  it('shows a request line as one readable line, and a line that is not JSON as it is', async () => {
    const show = await prettyLineFormatter();
    const line = JSON.stringify({
      level: 'info',
      time: '2026-12-07T22:45:00.123Z',
      pid: 7,
      hostname: 'control-1',
      reqId: 'req-1',
      method: 'GET',
      route: '/api/v1/prisoner/all',
      status: 200,
      responseTime: 3.2,
      account: 'admin',
      msg: 'GET /api/v1/prisoner/all 200 3.2 ms admin',
    });
    const shown = show(line).map(stripVTControlCharacters);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: GET \/api\/v1\/prisoner\/all 200 3\.2 ms admin\s*$/);
    expect(show('cannot listen on PORT 3001')).toEqual(['cannot listen on PORT 3001']);
  });
});

describe('stopReason with level names', () => {
  it("reads an error or fatal line's message, not a warning's", () => {
    expect(stopReason('{"level":"fatal","time":"2026-12-07T22:45:00.123Z","msg":"migration failed"}')).toBe('migration failed');
    expect(stopReason('{"level":"error","msg":"database unreachable"}')).toBe('database unreachable');
    expect(stopReason('{"level":"warn","msg":"Redis at 127.0.0.1:6379 does not answer"}')).toBeNull();
  });
});
