// Configuration that cannot be misread (decision 057): every variable of the schema, enumerated from the
// schema itself so one added later is covered too: empty means unset, a bad value is refused naming the variable,
// every problem is reported at once, and no password is ever printed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONFIG_VARIABLES, loadConfig } from './config';
import { ConfigError, describeIssue, isSecretName } from './lib/config-problems';
import { DEMO_ACCOUNTS } from './seed/demo-accounts';

/** The problems loadConfig reports for `env`, or [] when it accepts it. */
function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

// Values that are wrong for most kinds of variable; each variable must refuse at least the first (a control character,
// which no variable may hold) and name itself for every one it refuses.
const BAD_VALUES = ['bad\u0007value', 'x'.repeat(5_000), 'abc', '-1', '1.5', '0x10', '1e3', '99999999999', 'maybe', 'http://', 'a b'];

const configurationDoc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/CONFIGURATION.md'), 'utf8');

/** The variables docs/CONFIGURATION.md's tables name in their first column. */
function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const match of (line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('docs/CONFIGURATION.md', () => {
  it('documents no variable the server does not read (every row is a real setting)', () => {
    const unknown = [...documentedVariables(configurationDoc)].filter((name) => !(CONFIG_VARIABLES as string[]).includes(name));
    expect(unknown).toEqual([]);
  });
});

describe.each(CONFIG_VARIABLES)('%s', (name) => {
  it('has its row in docs/CONFIGURATION.md', () => {
    expect(documentedVariables(configurationDoc).has(name)).toBe(true);
  });

  it('empty or blank is the same as unset: the default applies, never 0 or off', () => {
    const unset = loadConfig({});
    for (const blank of ['', ' ', '\t']) expect(loadConfig({ [name]: blank }), JSON.stringify(blank)).toEqual(unset);
  });

  it('a bad value is refused with a message naming the variable and what it accepts', () => {
    const refused = BAD_VALUES.filter((value) => problemsOf({ [name]: value }).length > 0);
    expect(refused).toContain(BAD_VALUES[0]);
    for (const value of refused) {
      const problems = problemsOf({ [name]: value });
      expect(problems, value).toHaveLength(1);
      expect(problems[0], value).toMatch(new RegExp(`^${name} must `));
      // What it got is shown, escaped (a secret's never): the operator sees the typo.
      if (isSecretName(name)) expect(problems[0]).toContain('(value hidden)');
    }
  });
});

describe('the variables named in issue 23', () => {
  it('PORT= and SESSION_IDLE_MINUTES= behave as unset (not a random port, not idle logout off)', () => {
    const config = loadConfig({ PORT: '', SESSION_IDLE_MINUTES: '' });
    expect(config.PORT).toBe(3000);
    expect(config.SESSION_IDLE_MINUTES).toBe(30);
    expect(loadConfig({ PORT: '0', SESSION_IDLE_MINUTES: '0' })).toMatchObject({ PORT: 0, SESSION_IDLE_MINUTES: 0 });
  });

  it('says what it accepts and what it got, in the words of the issue', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(["PORT must be a whole number from 0 to 65535 (got 'abc')"]);
    for (const bad of ['65536', '-1', '80.5', '0x50', '8e3']) expect(problemsOf({ PORT: bad })[0], bad).toMatch(/^PORT must be a whole number from 0 to 65535/);
  });

  it('booleans take true/false/1/0/yes/no in any case and refuse anything else', () => {
    for (const [word, value] of [['true', true], ['YES', true], ['1', true], ['False', false], ['no', false], ['0', false]] as const)
      expect(loadConfig({ REQUIRE_TOTP: word, DEMO: word }), word).toMatchObject({ REQUIRE_TOTP: value, DEMO: value });
    for (const bad of ['on', 'off', 'y', '2', 'enabled'])
      expect(problemsOf({ REQUIRE_TOTP: bad }), bad).toEqual([`REQUIRE_TOTP must be one of true, false, 1, 0, yes, no (got '${bad}')`]);
  });

  it('reports every problem at once, in the order of the table', () => {
    expect(problemsOf({ SESSION_IDLE_MINUTES: 'soon', PORT: 'abc', LOG_LEVEL: 'loud', DEMO: 'maybe' }).map((line) => line.split(' ')[0])).toEqual([
      'PORT',
      'DEMO',
      'LOG_LEVEL',
      'SESSION_IDLE_MINUTES',
    ]);
  });
});

describe('a variable declared with plain zod (as a merge may bring one)', () => {
  it('is refused in the same words: what it accepts, what it got', () => {
    const schema = z.object({ EVERY_HOURS: z.coerce.number().int().positive(), MODE: z.enum(['a', 'b']) });
    const said = (env: Record<string, string>) =>
      schema.safeParse(env).error!.issues.map((issue) => describeIssue(String(issue.path[0]), issue, env[String(issue.path[0])]));
    expect(said({ EVERY_HOURS: 'abc', MODE: 'c' })).toEqual(["EVERY_HOURS must be a number (got 'abc')", "MODE must be one of a, b (got 'c')"]);
    expect(said({ EVERY_HOURS: '1.5', MODE: 'a' })).toEqual(["EVERY_HOURS must be a whole number (got '1.5')"]);
    expect(said({ EVERY_HOURS: '0', MODE: 'a' })).toEqual(["EVERY_HOURS must be greater than 0 (got '0')"]);
  });
});

describe('DATABASE_URL and REDIS_URL', () => {
  const PASSWORD = 'Tr0ub4dor-s3cret';
  const malformed: Record<'DATABASE_URL' | 'REDIS_URL', string[]> = {
    DATABASE_URL: [
      `postgres://prison:${PASSWORD}@db.example:port/prison`, // port not a number
      `postgres://prison:${PASSWORD}@`, // no host
      `postgres://prison:${PASSWORD}`, // no host, the password where the port goes
      `mysql://prison:${PASSWORD}@db.example/prison`, // another database
      `prison:${PASSWORD}@db.example/prison`, // no scheme
      `postgres://prison:${PASSWORD}@db example/prison?password=${PASSWORD}`, // a space in the host
      `postgres://prison:p@ss/${PASSWORD}@db.example:99999/prison`, // an @ and a / in the password, port out of range
    ],
    REDIS_URL: [
      `redis://:${PASSWORD}@redis.example:port`,
      `redis://:${PASSWORD}@`,
      `redis://default:${PASSWORD}`,
      `http://:${PASSWORD}@redis.example:6379`,
      `:${PASSWORD}@redis.example:6379`,
    ],
  };

  it.each(['DATABASE_URL', 'REDIS_URL'] as const)('a malformed %s is refused naming it, never printing the password', (name) => {
    for (const url of malformed[name]) {
      const env = { [name]: url, ...(name === 'REDIS_URL' ? { DATABASE_URL: 'postgres://prison@db.example/prison' } : {}) };
      let message = '';
      try {
        loadConfig(env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(new RegExp(`\\b${name} must be a (PostgreSQL|Redis) URL like`));
      expect(message, url).not.toContain(PASSWORD);
      expect(message, url).not.toContain('Tr0ub4dor');
    }
  });

  it('takes the forms node-postgres and ioredis take', () => {
    const good = [
      ['postgres://prison:pw@db.example:5432/prison?sslmode=require', 'rediss://:pw@redis.example:6380/1'],
      ['postgresql://prison@%2Fvar%2Frun%2Fpostgresql/prison', 'redis://redis.example'],
      ['postgres://prison:pw@/prison?host=/var/run/postgresql', '/run/redis/redis.sock'],
      ['/var/run/postgresql prison', 'redis://127.0.0.1:6379'],
    ];
    for (const [DATABASE_URL, REDIS_URL] of good) expect(problemsOf({ DATABASE_URL, REDIS_URL }), DATABASE_URL).toEqual([]);
  });

  it('a well-formed URL is shown without its user, password and parameter values', () => {
    const [problem] = problemsOf({ DATABASE_URL: `postgres://prison:${PASSWORD}@db.example/prison?password=${PASSWORD}`, REDIS_URL: 'nope' });
    expect(problem).toMatch(/^REDIS_URL must be a Redis URL/);
    expect(problemsOf({ DATABASE_URL: `http://prison:${PASSWORD}@db.example/prison?password=${PASSWORD}` })).toEqual([
      `DATABASE_URL must be a PostgreSQL URL like postgres://USER:PASSWORD@HOST:5432/DATABASE; it does not start with postgres:// or postgresql:// (got 'http://***@db.example/prison?password=***')`,
    ]);
  });

  it('REDIS_URL without DATABASE_URL is refused naming both', () => {
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: '' })).toEqual([
      'REDIS_URL needs DATABASE_URL (PostgreSQL) too: the processes of a cluster share one database',
    ]);
  });
});

describe('settings that say what they do', () => {
  it('ALERT_EMAIL_FROM is an address, alone or with a display name', () => {
    expect(loadConfig({ ALERT_EMAIL_FROM: 'alerts@prison.example' }).ALERT_EMAIL_FROM).toBe('alerts@prison.example');
    expect(loadConfig({ ALERT_EMAIL_FROM: 'Prison Control <alerts@prison.example>' }).ALERT_EMAIL_FROM).toBe('Prison Control <alerts@prison.example>');
    for (const wrong of ['Prison Control', 'alerts', 'a@b.example, c@d.example', 'Control <alerts>'])
      expect(problemsOf({ ALERT_EMAIL_FROM: wrong })[0], wrong).toMatch(/^ALERT_EMAIL_FROM must be an email address, like alerts@prison.example/);
  });

  it('PUBLIC_URL is the http(s) address staff open, kept without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://control.prison.example/' }).PUBLIC_URL).toBe('https://control.prison.example');
    expect(loadConfig({ PUBLIC_URL: 'https://prison.example/control/' }).PUBLIC_URL).toBe('https://prison.example/control');
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    for (const wrong of ['control.prison.example', 'ftp://control.prison.example', 'https://user:pw@control.example', 'https://control.example/?x=1'])
      expect(problemsOf({ PUBLIC_URL: wrong })[0], wrong).toMatch(/^PUBLIC_URL must be the http\(s\) address staff open the app at/);
  });

  it('TZ unset or empty is the process zone (a server started with TZ= : supervision.test.ts)', () => {
    expect(loadConfig({ TZ: '' }).TZ).toBe(loadConfig({}).TZ);
    expect(loadConfig({ TZ: 'Europe/London' }).TZ).toBe('Europe/London');
    expect(problemsOf({ TZ: 'Mars/Olympus' })[0]).toMatch(/^TZ must be a time zone name/);
  });
});

describe('ADMIN_PASSWORD', () => {
  it('a password this product publishes is refused naming ADMIN_PASSWORD, whatever its quotes, case or spaces', () => {
    for (const published of ['change this long passphrase', '"change this long passphrase"', ' Change  This Long Passphrase ', 'a long passphrase', DEMO_ACCOUNTS[0]!.password]) {
      expect(problemsOf({ ADMIN_PASSWORD: published }), published).toEqual([
        'ADMIN_PASSWORD must be a password of your own: this one is published (the env example, the docs or the demo accounts); set another, or leave it empty to have one generated and printed once (value hidden)',
      ]);
    }
    expect(loadConfig({ ADMIN_PASSWORD: 'change this long passphrase, but mine' }).ADMIN_PASSWORD).toBe('change this long passphrase, but mine');
    expect(loadConfig({ ADMIN_PASSWORD: '' }).ADMIN_PASSWORD).toBeUndefined();
  });
});
