// How the environment is read and refused, for every variable alike: an empty value is unset, control characters
// and overlong values are refused, and each problem becomes one line naming the variable, what it accepts and
// (never for a secret, never with a URL's password) what it got.
import type { z } from 'zod';

/** No variable needs more; a longer value is a mistake (a file pasted in). */
export const MAX_VARIABLE_LENGTH = 4_096;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Variables whose value is never printed, by name, so a secret added later is hidden without anyone remembering. */
export const isSecretName = (name: string) => /PASSWORD|SECRET|TOKEN|(^|_)KEY($|_)/.test(name);

/** The configuration is refused: every problem, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The variables `names` as the schema reads them: empty or blank means unset (the default applies, never 0 or off).
 * Returns the problems of the values no variable may hold.
 */
export function readVariables(env: NodeJS.ProcessEnv, names: readonly string[]) {
  const values: Record<string, string | undefined> = {};
  const problems = new Map<string, string>();
  for (const name of names) {
    const value = env[name];
    if (value === undefined || value.trim() === '') continue;
    if (value.length > MAX_VARIABLE_LENGTH || CONTROL.test(value))
      problems.set(name, `${name} must be at most ${MAX_VARIABLE_LENGTH} characters on one line, without control characters${shownValue(name, value)}`);
    else values[name] = value;
  }
  return { values, problems };
}

/** A zod issue of variable `name` as one line: "PORT must be a whole number from 0 to 65535 (got 'abc')". */
export function describeIssue(name: string, issue: z.core.$ZodIssue, value: string | undefined): string {
  return `${name} ${acceptedValues(issue)}${value === undefined ? '' : shownValue(name, value)}`;
}

/** The issue's own "must ..." from our setting kinds, or zod's built-in checks said the same way. */
function acceptedValues(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'custom':
      return issue.message;
    case 'invalid_type':
      if (issue.expected === 'int') return 'must be a whole number';
      if (issue.expected === 'number') return 'must be a number';
      return issue.message.startsWith('must') ? issue.message : `must be a ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters`
        : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message.startsWith('must') ? issue.message : `must be valid: ${issue.message}`;
  }
}

/** " (got 'VALUE')": hidden for a secret, a URL without its user, password and parameters, long values cut. */
function shownValue(name: string, value: string): string {
  if (isSecretName(name)) return ' (value hidden)';
  const safe = value.includes('://') || value.includes('@') ? withoutCredentials(value) : value;
  const cut = safe.length > 120 ? `${safe.slice(0, 120)}…` : safe;
  return ` (got '${JSON.stringify(cut).slice(1, -1)}')`; // JSON escapes show control characters
}

/**
 * A URL fit to print: its user and password become ***, its query's values ***. Whatever stands before the last @
 * may be a password (a malformed URL is not parsed the way its author meant), so it is never shown.
 */
export function withoutCredentials(value: string): string {
  const text = value.trim();
  const scheme = /^[a-z][\w+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const at = text.lastIndexOf('@');
  if (at >= 0) return `${scheme}***${text.slice(at).replace(/([?&][^=&#]*=)[^&#]*/g, '$1***')}`;
  try {
    const url = new URL(text);
    if (!scheme) throw new Error('no authority');
    const query = url.search ? `?${[...url.searchParams.keys()].map((key) => `${key}=***`).join('&')}` : '';
    return `${scheme}${url.host}${url.pathname === '/' ? '' : url.pathname}${query}`;
  } catch {
    // "postgres://user:password" without a host: where the password ends cannot be told.
    return `${scheme}…`;
  }
}

/** Prints a refused configuration (no stack trace: nothing in it is a bug) and ends the process with status 2. */
export function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  const count = error.problems.length === 1 ? 'a problem' : `${error.problems.length} problems`;
  console.error(`The configuration has ${count}; nothing was started:\n  ${error.problems.join('\n  ')}\nSee docs/CONFIGURATION.md.`);
  process.exit(2);
}
