// Every answer carries the security headers (the web app's CSP is checked in a browser by e2e/content-security).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { useTestApp } from './test-app';

const ctx = useTestApp('pglite');

it('sets the CSP and the other helmet headers on API answers, errors included', async () => {
  for (const response of [
    await ctx().api('GET', '/prisoner/all'),
    await ctx().api('GET', '/prisoner/prisonerid/999'),
  ]) {
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // Only this origin (its ws: and wss: included): no socket to any other host (issue 9, finding 6).
    expect(csp).toMatch(/(^|;)connect-src 'self'(;|$)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-powered-by']).toBeUndefined();
  }
});

it('refuses a cross-origin write', async () => {
  const response = await ctx().api('POST', '/prisoner/add', {}, { origin: 'https://evil.example' });
  expect(response.statusCode).toBe(403);
});

describe('ALLOWED_ORIGINS', () => {
  const allowed = useTestApp('pglite', { ALLOWED_ORIGINS: ['https://control.example:8443', 'http://wall.example'] });

  it('names exactly those origins, and their WebSocket forms, in connect-src', async () => {
    const csp = String((await allowed().api('GET', '/prisoner/all')).headers['content-security-policy']);
    expect(csp).toMatch(
      /(^|;)connect-src 'self' https:\/\/control\.example:8443 wss:\/\/control\.example:8443 http:\/\/wall\.example ws:\/\/wall\.example(;|$)/,
    );
  });

  it('takes full origins only, normalised as browsers send them', () => {
    const parse = (value: string) => loadConfig({ ALLOWED_ORIGINS: value }).ALLOWED_ORIGINS;
    expect(parse('')).toEqual([]);
    expect(parse(' https://Control.example:8443/ , http://wall.example:80')).toEqual([
      'https://control.example:8443',
      'http://wall.example',
    ]);
    for (const bad of ['control.example', 'https://control.example/app', 'ftp://control.example', '*', 'https://a.example?x']) {
      expect(() => parse(bad), bad).toThrow(/ALLOWED_ORIGINS/);
    }
  });

  it('SESSION_IDLE_MINUTES defaults to 30 and takes 0 (off) to 1440 whole minutes', () => {
    expect(loadConfig({}).SESSION_IDLE_MINUTES).toBe(30);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '0' }).SESSION_IDLE_MINUTES).toBe(0);
    for (const bad of ['-1', '1.5', '1441', 'soon']) {
      expect(() => loadConfig({ SESSION_IDLE_MINUTES: bad }), bad).toThrow(/SESSION_IDLE_MINUTES/);
    }
  });
});
