// `npm start` rebuilds the web app only when its inputs changed (decision 061): the inputs' hash is stable, follows the
// VITE_* settings, and a build stamp that does not match (or a missing apps/web/dist) means "build".
import { describe, expect, it } from 'vitest';
import { webInputsHash } from './web-build.mjs';

describe('webInputsHash', () => {
  it('is the same for the same sources and settings, and differs when a VITE_ setting differs', () => {
    const env = { PATH: '/usr/bin', VITE_EXAMPLE: 'a' };
    const first = webInputsHash(env);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(webInputsHash({ ...env, PATH: '/bin', HOME: '/root' })).toBe(first);
    expect(webInputsHash({ ...env, VITE_EXAMPLE: 'b' })).not.toBe(first);
  });

  it('is cheap: well under a second of CPU to hash the web app and packages/shared', () => {
    const started = process.cpuUsage();
    webInputsHash({});
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(1000);
  });
});
