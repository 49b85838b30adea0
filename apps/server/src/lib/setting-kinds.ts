// The kinds of value an environment variable holds (whole numbers, numbers, flags, choices, database URLs), each
// refusing with a "must be ..." naming what it accepts; config.ts declares every variable with one of them.
import { z } from 'zod';

const WHOLE = /^[+-]?\d+$/;
// Plain decimal only: Number() would also take '0x10', '1e3', 'Infinity' and ' ' (0), none of which anyone means.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const shown = String;

/** A whole number from min to max, both included: "must be a whole number from 0 to 65535". */
export function wholeNumber(min: number, max: number) {
  return z
    .string()
    .trim()
    .refine((text) => WHOLE.test(text) && Number(text) >= min && Number(text) <= max, {
      message: `must be a whole number from ${shown(min)} to ${shown(max)}`,
    })
    .transform(Number);
}

/** A decimal number up to max; above `greaterThan` (excluded) or from `min` (included). */
export function decimalNumber(range: { greaterThan: number; max: number } | { min: number; max: number }) {
  const low = 'greaterThan' in range ? range.greaterThan : range.min;
  const lowOk = (n: number) => ('greaterThan' in range ? n > low : n >= low);
  const wording =
    'greaterThan' in range
      ? `must be a number greater than ${shown(low)} and at most ${shown(range.max)}`
      : `must be a number from ${shown(low)} to ${shown(range.max)}`;
  return z
    .string()
    .trim()
    .refine((text) => DECIMAL.test(text) && lowOk(Number(text)) && Number(text) <= range.max, { message: wording })
    .transform(Number);
}

/** The words a yes/no variable accepts (any case), in the order docs/CONFIGURATION.md lists them. */
export const FLAG_WORDS: readonly (readonly [string, boolean])[] = [
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
];

/** A yes/no variable: true/false/1/0/yes/no in any case; anything else is refused, never read as "off". */
export function flag() {
  return z.string().transform((text, context) => {
    const word = FLAG_WORDS.find(([name]) => name === text.trim().toLowerCase());
    if (word) return word[1];
    context.addIssue({ code: 'custom', message: `must be one of ${FLAG_WORDS.map(([name]) => name).join(', ')}` });
    return z.NEVER;
  });
}

/** One of a fixed list of words: "must be one of a, b, c". */
export function oneOf<const Words extends readonly [string, ...string[]]>(words: Words) {
  return z
    .string()
    .trim()
    .refine((text) => (words as readonly string[]).includes(text), { message: `must be one of ${words.join(', ')}` })
    .transform((text) => text as Words[number]);
}

/** Free text of at most `max` characters (control characters are refused for every variable by config-problems.ts). */
export function text(max: number) {
  return z.string().max(max, { message: `must be at most ${shown(max)} characters` });
}

/** "its port is not ..." when the port of a URL's authority is what keeps it from parsing. */
function portProblem(url: string): string | null {
  const authority = url.slice(url.indexOf('//') + 2).split(/[/?#]/)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostAndPort.startsWith('[') || !hostAndPort.includes(':')) return null;
  const port = hostAndPort.slice(hostAndPort.lastIndexOf(':') + 1);
  return /^\d{1,5}$/.test(port) && Number(port) <= 65535 ? null : 'its port is not a number from 1 to 65535';
}

/**
 * A URL of one of `schemes`, parsed the way node-postgres and ioredis parse it (spaces encoded; an empty host
 * allowed when a `host=` parameter names a socket directory), with a host.
 */
function serviceUrlProblem(value: string, schemes: string[], hostParameter: boolean): string | null {
  const scheme = /^([a-z][\w+.-]*:)\/\//i.exec(value)?.[1];
  if (!scheme || !schemes.includes(scheme.toLowerCase())) return `it does not start with ${schemes.map((s) => `${s}//`).join(' or ')}`;
  const encoded = /\s|%(?![0-9a-f]{2})/i.test(value) ? encodeURI(value).replace(/%25(\d\d)/g, '%$1') : value;
  let url: URL;
  try {
    url = new URL(encoded);
  } catch {
    try {
      url = new URL(encoded.replace('@/', '@___no_host___/'));
      url.hostname = '';
    } catch {
      return portProblem(encoded) ?? 'it is not a URL';
    }
  }
  if (!url.hostname && !(hostParameter && url.searchParams.get('host'))) return 'it names no host';
  // A name, an IPv6 literal, or node-postgres's socket directory written %2F...
  if (url.hostname && !/^([\w.-]+|\[[\da-f:.]+\]|%2f.*)$/i.test(url.hostname)) return 'its host is not a host name';
  // "user:p@ss/word@host" parses as host "ss": an @ after the host is a password that needed encoding.
  if (url.pathname.includes('@') || url.search.includes('@'))
    return 'it has an @ after its host: write @ / ? # in the password as %40 %2F %3F %23';
  return null;
}

/** DATABASE_URL: a PostgreSQL connection URL, or node-postgres's socket forms (`/var/run/postgresql DATABASE`, `socket:`). */
export function postgresUrl() {
  return z.string().superRefine((value, context) => {
    if (value.startsWith('/') || value.startsWith('socket:')) return; // node-postgres: a Unix socket directory
    const problem = serviceUrlProblem(value.trim(), ['postgres:', 'postgresql:'], true);
    if (problem)
      context.addIssue({ code: 'custom', message: `must be a PostgreSQL URL like postgres://USER:PASSWORD@HOST:5432/DATABASE; ${problem}` });
  });
}

/** REDIS_URL: redis:// or rediss:// (TLS) with a host, or a Unix socket path. */
export function redisUrl() {
  return z.string().superRefine((value, context) => {
    if (value.startsWith('/')) return; // ioredis: a Unix socket path
    const problem = serviceUrlProblem(value.trim(), ['redis:', 'rediss:'], false);
    if (problem) context.addIssue({ code: 'custom', message: `must be a Redis URL like redis://:PASSWORD@HOST:6379/0; ${problem}` });
  });
}

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Comma-separated times of day (`08:00,12:30`), sorted and without repeats; `off` or `none`: no time at all. */
export function timesOfDay(maxTimes: number) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      if (['off', 'none'].includes(value.toLowerCase())) return [];
      const times = value.split(',').map((part) => part.trim());
      const bad = times.find((time) => !TIME_OF_DAY.test(time));
      if (bad !== undefined || times.length > maxTimes) {
        context.addIssue({
          code: 'custom',
          message: `must be up to ${maxTimes} comma-separated times of day as HH:MM (e.g. 08:00,12:30), or off`,
        });
        return z.NEVER;
      }
      return [...new Set(times)].sort();
    });
}

/** MQTT_URL: the site's broker, mqtt:// or mqtts:// (TLS), ws:// or wss://, with a host (decision 067). */
export function mqttUrl() {
  return z.string().superRefine((value, context) => {
    const problem = serviceUrlProblem(value.trim(), ['mqtt:', 'mqtts:', 'ws:', 'wss:'], false);
    if (problem) context.addIssue({ code: 'custom', message: `must be an MQTT URL like mqtt://USER:PASSWORD@HOST:1883; ${problem}` });
  });
}
