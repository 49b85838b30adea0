import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';

// The API documentation is generated from the same zod schemas; one engine is enough to prove it builds.
describe('openapi of the history, audit, profile, log and alert workflow routes', () => {
  const ctx = useTestApp('pglite');
  it('documents the history, audit, profile, messages and alert workflow routes', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: ctx().cookie } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      '/api/v1/location/history',
      '/api/v1/location/export',
      '/api/v1/audit',
      '/api/v1/profile/password',
      '/api/v1/messages',
      '/api/v1/alert/bulk',
      '/api/v1/alert/{id}/resolve',
    ]) {
      expect(paths, path).toContain(path);
    }
  });
});
