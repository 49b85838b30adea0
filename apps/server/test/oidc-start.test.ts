// Single sign-on's provider is checked at start (decision 104): a server whose OIDC_ISSUER names a port nothing
// listens on refuses to start with status 2 and one line naming OIDC_ISSUER, instead of failing each login later
// with "fetch failed"; the check itself, in process, passes for a provider that answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOidcIssuer } from '../src/modules/admin/oidc-issuer-check';
import { StartRefusal } from '../src/lib/start-refusal';
import { startTestOidcProvider } from './oidc-test-provider';
import { killStartedServers, startServerProcess } from './server-process';

const scratch = mkdtempSync(path.join(tmpdir(), 'prison-oidc-start-'));
afterAll(() => {
  killStartedServers();
  rmSync(scratch, { recursive: true, force: true });
});

/** A loopback port that was free a moment ago and that nothing listens on now: connecting to it is refused. */
const refusedPort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const settings = (issuer: string) => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'prison-control', OIDC_SCOPES: 'openid profile' });

describe('single sign-on at start', () => {
  it('a provider that answers passes; one on a refused port is a refusal naming OIDC_ISSUER', async () => {
    const provider = await startTestOidcProvider();
    try {
      provider.registerClient({ clientId: 'prison-control', clientSecret: 'a client secret', redirectUris: ['http://127.0.0.1/cb'] });
      await expect(checkOidcIssuer(settings(provider.issuer))).resolves.toBeUndefined();
    } finally {
      await provider.close();
    }
    const issuer = `http://127.0.0.1:${await refusedPort()}`;
    const refusal = await checkOidcIssuer(settings(issuer)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StartRefusal);
    expect((refusal as Error).message).toContain(`OIDC_ISSUER ${issuer} does not answer`);
    expect((refusal as Error).message).toContain('ECONNREFUSED');
    await expect(checkOidcIssuer({ OIDC_SCOPES: 'openid' })).resolves.toBeUndefined();
  });

  it('the server refuses to start, status 2, with one line naming OIDC_ISSUER', async () => {
    const issuer = `http://127.0.0.1:${await refusedPort()}`;
    const server = startServerProcess({
      DATA_DIR: path.join(scratch, 'data'),
      PORT: String(await refusedPort()),
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'prison-control',
    });
    expect(await server.exited, server.output()).toBe(2);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^OIDC_ISSUER ${issuer} does not answer its discovery \\(ECONNREFUSED\\)`));
  }, 120_000);
});
