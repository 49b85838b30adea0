// The single sign-on settings are checked at start like the others (decision 052): a bad one stops the server naming it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const sso = { OIDC_ISSUER: 'https://login.example.org/realms/prison', OIDC_CLIENT_ID: 'prison-control' };

describe('OIDC_* configuration', () => {
  it('is off without an issuer, with the claim names defaulted', () => {
    const config = loadConfig({});
    expect(config.OIDC_ISSUER).toBeUndefined();
    expect(config).toMatchObject({ OIDC_ROLE_CLAIM: 'role', OIDC_BLOCKS_CLAIM: 'blocks', OIDC_SCOPES: 'openid profile' });
  });

  it('takes an https issuer, or http on localhost only', () => {
    expect(loadConfig(sso).OIDC_ISSUER).toBe(sso.OIDC_ISSUER);
    expect(loadConfig({ ...sso, OIDC_ISSUER: 'http://127.0.0.1:4000' }).OIDC_ISSUER).toBe('http://127.0.0.1:4000');
    expect(() => loadConfig({ ...sso, OIDC_ISSUER: 'http://login.example.org' })).toThrow(/OIDC_ISSUER must be an https URL/);
    expect(() => loadConfig({ ...sso, OIDC_ISSUER: 'login.example.org' })).toThrow(/OIDC_ISSUER/);
  });

  it('needs the client id with an issuer, scopes with openid, and claim names without spaces', () => {
    expect(() => loadConfig({ OIDC_ISSUER: sso.OIDC_ISSUER })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ ...sso, OIDC_SCOPES: 'profile email' })).toThrow(/OIDC_SCOPES must include openid/);
    expect(() => loadConfig({ ...sso, OIDC_ROLE_CLAIM: 'my role' })).toThrow(/OIDC_ROLE_CLAIM/);
    expect(loadConfig({ ...sso, OIDC_ROLE_CLAIM: 'realm_access.roles' }).OIDC_ROLE_CLAIM).toBe('realm_access.roles');
    expect(() => loadConfig({ ...sso, OIDC_REDIRECT_URI: '/api/v1/auth/oidc/callback' })).toThrow(/OIDC_REDIRECT_URI/);
  });
});
