// argon2id with the OWASP Password Storage Cheat Sheet parameters (19 MiB, 2 iterations, 1 lane), and the password
// rule: the shared one (length, username...) plus the common-password list of @zxcvbn-ts/language-common.
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { COMMON_PASSWORD_PROBLEM, passwordProblem } from '@prison/shared';
import { badRequest } from '../../lib/http-errors';

/** Algorithm.Argon2id; the enum is a const enum that isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

const OWASP = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OWASP);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Checked against when the username does not exist, so timing does not reveal which usernames exist. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password');
  return dummyHash;
}

/** About 49,000 of the most common passwords (zxcvbn's list, from leaked-password frequency), lower-cased, loaded once. */
let commonPasswords: Set<string> | undefined;
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

/** What is wrong with a password under the whole rule, or null. */
export function newPasswordProblem(password: string, username: string): string | null {
  return passwordProblem(password, username) ?? (isCommonPassword(password) ? COMMON_PASSWORD_PROBLEM : null);
}

/** Throws 400 `{field} {problem}` when a new password breaks the rule. */
export function checkNewPassword(password: string, username: string, field = 'password'): void {
  const problem = newPasswordProblem(password, username);
  if (problem) throw badRequest(`${field}: ${field} ${problem}`);
}
