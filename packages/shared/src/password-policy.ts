// The password rule (ASVS 6.2), in one place for the server and the web forms: length, no control characters, not
// one character repeated, not containing the username. No composition rules and no forced rotation. The server adds
// one more check the browser does not load: not one of the common passwords of a maintained list.

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
/** A username shorter than this is not looked for inside the password (every password would contain "a"). */
const MIN_USERNAME_TO_CHECK = 3;

export const PASSWORD_HINT = `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters; a phrase of a few words is easy to remember. Not a common password, and not your username.`;
export const COMMON_PASSWORD_PROBLEM = 'is one of the most common passwords: choose another';

// Cc: C0/C1 controls (NUL, TAB, ...); Cs: lone surrogates, which no keyboard types.
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/**
 * What is wrong with a new password, as the end of a sentence that starts with the field's name
 * (`password must be at least 12 characters`), or null when the rule is met. Length counts characters, not bytes.
 */
export function passwordProblem(password: string, username?: string): string | null {
  const characters = [...password];
  if (characters.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (characters.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(password)) return 'must not contain control characters';
  if (new Set(characters).size === 1) return 'must not be one character repeated';
  const name = username?.trim().toLowerCase();
  if (name && name.length >= MIN_USERNAME_TO_CHECK && password.toLowerCase().includes(name))
    return 'must not contain the username';
  return null;
}
