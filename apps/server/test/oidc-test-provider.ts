// A real OpenID provider for the single sign-on tests (oidc-provider, panva's certified implementation) on a port of
// its own, with its development login and consent pages: any password logs in the account named in the login field.
// The vitest test (modules/admin/oidc-login.test.ts) and the e2e (e2e/specs/oidc-login.spec.ts) both start one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:PORT`, what OIDC_ISSUER is set to. */
  issuer: string;
  /** Accounts by login name (= subject): their claims, changed by a test between logins. */
  accounts: Map<string, Record<string, unknown>>;
  /** The client the app under test is registered as; until it is, the provider answers 503. */
  registerClient(client: TestOidcClient): void;
  close(): Promise<void>;
}

export async function startTestOidcProvider(options: { port?: number; client?: TestOidcClient } = {}): Promise<TestOidcProvider> {
  const accounts = new Map<string, Record<string, unknown>>();
  let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;
  const server = http.createServer((req, res) => {
    if (handle) return handle(req, res);
    res.writeHead(503).end('no client registered yet');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const registerClient = (client: TestOidcClient) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: client.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      // The custom claims travel with the profile scope; in the code flow they are answered by UserInfo.
      claims: { openid: ['sub'], profile: ['preferred_username', 'name', 'role', 'blocks'] },
      findAccount: (_ctx, id) => {
        const claims = accounts.get(id);
        if (!claims) return undefined;
        return { accountId: id, claims: () => ({ sub: id, ...claims }) };
      },
      pkce: { required: () => true },
      cookies: { keys: ['oidc-test-provider-cookie-key'] },
      features: { devInteractions: { enabled: true } },
      // Lifetimes of its own, so it does not print a notice per default it uses.
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    });
    handle = provider.callback();
  };
  if (options.client) registerClient(options.client);

  return {
    issuer,
    accounts,
    registerClient,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
