// Every answer carries the security headers (the web app's CSP is checked in a browser by e2e/content-security).
import { expect, it } from 'vitest';
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
    expect(csp).toContain("connect-src 'self' ws: wss:");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-powered-by']).toBeUndefined();
  }
});

it('refuses a cross-origin write', async () => {
  const response = await ctx().api('POST', '/prisoner/add', {}, { origin: 'https://evil.example' });
  expect(response.statusCode).toBe(403);
});
