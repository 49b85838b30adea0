// What a single sign-on's claims make of an account (decision 052): its role, its caseload, its username and name.
// Pure, so every shape a provider may send is tested without one.
import { ROLES, caseloadBlocks, nameText, roleNeedsBlocks, type Role } from '@prison/shared';

export type Claims = Record<string, unknown>;

export type ClaimsRefusal = 'no_role' | 'unknown_blocks' | 'no_blocks';

export type AccessFromClaims =
  | { ok: true; role: Role; blocks: string[]; ignoredBlocks: string[] }
  | { ok: false; refusal: ClaimsRefusal; why: string };

/**
 * A claim by name: the top-level claim of that exact name first (Auth0's namespaced claims hold dots), else the
 * dotted path into nested objects (Keycloak's `realm_access.roles`).
 */
export function readClaim(claims: Claims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

/** The role a claim names: one of our role values, or a list holding exactly one (other entries are other systems'). */
function roleFrom(value: unknown): Role | null {
  const isRole = (entry: unknown): entry is Role => typeof entry === 'string' && (ROLES as readonly string[]).includes(entry);
  if (isRole(value)) return value;
  if (!Array.isArray(value)) return null;
  const named = [...new Set(value.filter(isRole))];
  return named.length === 1 ? named[0]! : null;
}

/**
 * The account's role and caseload from the claims. Refused when the role claim names no single valid role; block
 * names this prison does not have are left out (and reported), but a caseload that names blocks and keeps none is
 * refused, because an empty caseload means every block. An absent or empty blocks claim means every block, as in the
 * API, except for a wing officer, who is refused without a block.
 */
export function accessFromClaims(
  claims: Claims,
  options: { roleClaim: string; blocksClaim: string; knownBlocks: ReadonlySet<string> },
): AccessFromClaims {
  const role = roleFrom(readClaim(claims, options.roleClaim));
  if (!role) return { ok: false, refusal: 'no_role', why: `claim ${options.roleClaim} names no single valid role` };

  const raw = readClaim(claims, options.blocksClaim);
  // A wing officer's account holds at least one block (decision 093): none, absent or empty, would be every block.
  const noBlocks: AccessFromClaims = { ok: false, refusal: 'no_blocks', why: `claim ${options.blocksClaim} gives a wing officer no block` };
  if (raw === undefined || raw === null) return roleNeedsBlocks(role) ? noBlocks : { ok: true, role, blocks: [], ignoredBlocks: [] };
  const parsed = caseloadBlocks.safeParse(typeof raw === 'string' ? [raw] : raw);
  if (!parsed.success)
    return { ok: false, refusal: 'unknown_blocks', why: `claim ${options.blocksClaim} is not a list of block names` };
  const named = [...new Set(parsed.data)];
  const blocks = named.filter((block) => options.knownBlocks.has(block));
  const ignoredBlocks = named.filter((block) => !options.knownBlocks.has(block));
  if (named.length > 0 && blocks.length === 0)
    return { ok: false, refusal: 'unknown_blocks', why: `claim ${options.blocksClaim} names no block of this prison` };
  if (blocks.length === 0 && roleNeedsBlocks(role)) return noBlocks;
  return { ok: true, role, blocks, ignoredBlocks };
}

/** The username rule of accounts (packages/shared profile.ts). */
const USERNAME = /^[\w.@-]{1,100}$/;

/**
 * The usernames to try for a new account, in order: `preferred_username`, then `sub`, each only when it meets the
 * username rule. The caller takes the first one no other account uses.
 */
export function usernameCandidates(claims: Claims): string[] {
  const candidates = [claims.preferred_username, claims.sub]
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.trim())
    .filter((value) => USERNAME.test(value));
  return [...new Set(candidates)];
}

/** The account's display name: the `name` claim when it is a fit name, else the username. */
export function displayName(claims: Claims, username: string): string {
  const parsed = nameText(100).safeParse(claims.name);
  return parsed.success && parsed.data ? parsed.data : username;
}
