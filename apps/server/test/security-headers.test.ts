// Every answer carries the security headers (the web app's CSP is checked in a browser by e2e/content-security).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    // Only this origin (its ws: and wss: included): no socket to any other host (finding 6).
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

describe('Permissions-Policy (issue 20)', () => {
  // A built web app of two files, so static answers are among the sample.
  const webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  const web = useTestApp('pglite', { WEB_DIST: webDist });

  it('denies camera, microphone, geolocation, payment, usb and the other unused features on every kind of answer', async () => {
    const app = web().app;
    const cookie = { cookie: web().cookie };
    const answers = [
      ['API', await app.inject({ url: '/api/v1/prisoner/all', headers: cookie })],
      ['API 404', await app.inject({ url: '/api/v1/prisoner/prisonerid/999', headers: cookie })],
      ['API 400', await app.inject({ url: '/api/v1/prisoner/all?limit=x', headers: cookie })],
      ['401', await app.inject({ url: '/api/v1/prisoner/all' })],
      ['415', await app.inject({ method: 'POST', url: '/api/v1/messages', headers: { ...cookie, 'content-type': 'text/plain' }, payload: 'x' })],
      ['unknown route', await app.inject({ method: 'POST', url: '/api/v1/nothing-here', headers: cookie })],
      ['static file', await app.inject({ url: '/assets/app.js' })],
      ['missing asset', await app.inject({ url: '/assets/gone.js' })],
      ['client route', await app.inject({ url: '/dashboard' })],
      ['health', await app.inject({ url: '/healthz' })],
    ] as const;
    for (const [what, response] of answers) {
      const policy = String(response.headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture']) {
        expect(policy, `${what} (${response.statusCode})`).toMatch(new RegExp(`(^|, )${feature}=\\(\\)(,|$)`));
      }
    }
    expect(answers.map(([, r]) => r.statusCode)).toEqual([200, 404, 400, 401, 415, 404, 200, 404, 200, 200]);
  });
});
