// The claims of a single sign-on as each provider shape arrives (decision 052): role, caseload, username, name.
import { describe, expect, it } from 'vitest';
import { accessFromClaims, displayName, readClaim, usernameCandidates } from './oidc-claims';

const options = { roleClaim: 'role', blocksClaim: 'blocks', knownBlocks: new Set(['A', 'B', 'Block C']) };

describe('accessFromClaims', () => {
  it('takes one of our roles, as a value or as the one role of ours in a list of other groups', () => {
    expect(accessFromClaims({ role: 'officer', blocks: ['A'] }, options)).toEqual({ ok: true, role: 'officer', blocks: ['A'], ignoredBlocks: [] });
    expect(accessFromClaims({ role: ['staff', 'auditor', 'vpn-users'] }, options)).toMatchObject({ ok: true, role: 'auditor' });
  });

  it.each([[{}], [{ role: '' }], [{ role: 'Officer' }], [{ role: ['officer', 'supervisor'] }], [{ role: 7 }], [{ role: { name: 'officer' } }]])(
    'refuses %j: no single valid role',
    (claims) => {
      expect(accessFromClaims(claims, options)).toMatchObject({ ok: false, refusal: 'no_role' });
    },
  );

  it('reads nested claims by a dotted path, and a top-level claim whose name holds dots first', () => {
    const nested = { realm_access: { roles: ['offline_access', 'records'] } };
    expect(accessFromClaims(nested, { ...options, roleClaim: 'realm_access.roles' })).toMatchObject({ ok: true, role: 'records' });
    const namespaced = { 'https://prison.example/role': 'operator' };
    expect(readClaim(namespaced, 'https://prison.example/role')).toBe('operator');
    expect(readClaim({ a: { b: 1 } }, 'a.c')).toBeUndefined();
    expect(readClaim({ a: [1] }, 'a.0')).toBeUndefined();
  });

  it('absent, null or empty blocks mean every block; one name may come as a string', () => {
    expect(accessFromClaims({ role: 'operator' }, options)).toMatchObject({ blocks: [] });
    expect(accessFromClaims({ role: 'operator', blocks: null }, options)).toMatchObject({ blocks: [] });
    expect(accessFromClaims({ role: 'operator', blocks: [] }, options)).toMatchObject({ blocks: [] });
    expect(accessFromClaims({ role: 'officer', blocks: 'Block C' }, options)).toMatchObject({ blocks: ['Block C'] });
  });

  it.each([[{ role: 'officer' }], [{ role: 'officer', blocks: null }], [{ role: 'officer', blocks: [] }]])(
    'refuses a wing officer with no block (%j): for him none is not every block',
    (claims) => {
      expect(accessFromClaims(claims, options)).toMatchObject({ ok: false, refusal: 'no_blocks' });
    },
  );

  it('leaves out unknown blocks and says which; refuses a caseload left with none, or not a list of names', () => {
    expect(accessFromClaims({ role: 'officer', blocks: ['A', 'Z', 'A'] }, options)).toEqual({
      ok: true,
      role: 'officer',
      blocks: ['A'],
      ignoredBlocks: ['Z'],
    });
    expect(accessFromClaims({ role: 'officer', blocks: ['Z'] }, options)).toMatchObject({ ok: false, refusal: 'unknown_blocks' });
    expect(accessFromClaims({ role: 'officer', blocks: [1, 2] }, options)).toMatchObject({ ok: false, refusal: 'unknown_blocks' });
    expect(accessFromClaims({ role: 'officer', blocks: { A: true } }, options)).toMatchObject({ ok: false, refusal: 'unknown_blocks' });
    expect(accessFromClaims({ role: 'officer', blocks: [''] }, options)).toMatchObject({ ok: false, refusal: 'unknown_blocks' });
  });
});

describe('usernameCandidates and displayName', () => {
  it('tries preferred_username then sub, each only when it meets the username rule', () => {
    expect(usernameCandidates({ preferred_username: 'j.smith', sub: 'abc-123' })).toEqual(['j.smith', 'abc-123']);
    expect(usernameCandidates({ preferred_username: 'John Smith', sub: 'abc-123' })).toEqual(['abc-123']);
    expect(usernameCandidates({ sub: 'x'.repeat(101) })).toEqual([]);
    expect(usernameCandidates({ preferred_username: 'same', sub: 'same' })).toEqual(['same']);
  });

  it('takes the name claim when it is a fit name', () => {
    expect(displayName({ name: 'Jane Smith' }, 'j.smith')).toBe('Jane Smith');
    expect(displayName({ name: 'Evil\u202Ename' }, 'j.smith')).toBe('j.smith');
    expect(displayName({}, 'j.smith')).toBe('j.smith');
  });
});
