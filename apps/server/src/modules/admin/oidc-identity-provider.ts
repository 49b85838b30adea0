// The identity provider as openid-client (v6) speaks to it: discovery, the authorization URL of the code flow with
// PKCE, state and nonce, and the code exchange that validates the ID token and reads the claims (decision 052).
import * as client from 'openid-client';
import type { Claims } from './oidc-claims';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Absent: a public client, PKCE alone. */
  clientSecret?: string;
  scopes: string;
}

/** What the browser's return proves: who the provider says it is, and every claim it gave. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  claims: Claims;
  /** The ID token as received: the hint of the provider's logout. */
  idToken: string;
}

/** The checks kept from the start of a login for its return. */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The discovered metadata is kept this long, then read again (a failed discovery is retried at the next login). */
const METADATA_TTL_MS = 60 * 60_000;
/** Seconds one call to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export class OidcIdentityProvider {
  private discovered: { configuration: Promise<client.Configuration>; at: number } | null = null;

  constructor(private readonly settings: OidcSettings) {}

  /** The provider's configuration, discovered from `issuer`/.well-known/openid-configuration (the issuer checked). */
  private configuration(): Promise<client.Configuration> {
    if (this.discovered && Date.now() - this.discovered.at < METADATA_TTL_MS) return this.discovered.configuration;
    const { issuer, clientId, clientSecret } = this.settings;
    const configuration = client.discovery(
      new URL(issuer),
      clientId,
      clientSecret,
      // The OpenID Connect default for a client with a secret; a public client authenticates with PKCE alone.
      clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // The configuration refuses plain http except on the loopback (a provider started by a test).
        execute: new URL(issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [],
      },
    );
    const entry = { configuration, at: Date.now() };
    this.discovered = entry;
    configuration.catch(() => {
      if (this.discovered === entry) this.discovered = null;
    });
    return configuration;
  }

  /** New random checks for one login. */
  static newChecks(): OidcChecks {
    return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
  }

  /** Where the browser goes to log in: the authorization code flow with PKCE (S256), state and nonce. */
  async authorizationUrl(redirectUri: string, checks: OidcChecks): Promise<URL> {
    const configuration = await this.configuration();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
  }

  /**
   * Validates the authorization response (`callbackUrl`: the redirect URI with the query the browser brought),
   * exchanges the code with the PKCE verifier, validates the ID token (signature, issuer, audience, expiry, nonce),
   * and reads the claims: the ID token's, and the UserInfo endpoint's for the same subject (providers put custom
   * claims in one or the other); the ID token wins where both have one.
   */
  async identify(callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity> {
    const configuration = await this.configuration();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('the provider answered no ID token');
    const userInfo = configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)
      : {};
    return { issuer: idToken.iss, subject: idToken.sub, claims: { ...userInfo, ...idToken }, idToken: tokens.id_token! };
  }

  /** Discovers the provider now: throws when it does not answer or its metadata does not name this issuer. */
  async discover(): Promise<void> {
    await this.configuration();
  }

  /**
   * Where the browser goes to end its session at the provider (RP-initiated logout, with the ID token as hint), or
   * null when the provider offers no end-session endpoint.
   */
  async endSessionUrl(idToken: string): Promise<URL | null> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(configuration, { id_token_hint: idToken, client_id: this.settings.clientId });
  }
}

/** Why a provider did not answer, in a few words: the network's code (ECONNREFUSED) where there is one. */
export function unreachableWhy(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Why a login at the provider failed, as the login page says it: cancelled by the user, or failed. */
export function providerFailure(error: unknown): 'cancelled' | 'failed' {
  return error instanceof client.AuthorizationResponseError && error.error === 'access_denied' ? 'cancelled' : 'failed';
}

/** The provider the settings name (OIDC_ISSUER), or null when single sign-on is off. */
export function identityProviderOf(config: {
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_SCOPES: string;
}): OidcIdentityProvider | null {
  if (!config.OIDC_ISSUER) return null;
  return new OidcIdentityProvider({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID!,
    clientSecret: config.OIDC_CLIENT_SECRET || undefined,
    scopes: config.OIDC_SCOPES,
  });
}
