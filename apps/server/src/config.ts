// Every setting comes from the environment, checked once at start (docs/CONFIGURATION.md lists them). Each variable is declared
// once below with a kind from lib/setting-kinds.ts; what applies to all of them (empty = unset, one line per problem
// naming the variable, secrets never printed) is lib/config-problems.ts, so a variable is covered by declaring it.
import { z } from 'zod';
import { DEFAULT_COUNT_TIMES, DEFAULT_DEVICE_OFFLINE_SECONDS, DEFAULT_OFFLINE_GRACE_SECONDS } from '@prison/shared';
import { ConfigError, describeIssue, exitOnConfigError, readVariables } from './lib/config-problems';
import { parseConfiguredOrigin } from './lib/origins';
import { secretKeyProblem } from './lib/secret-key';
import { decimalNumber, flag, mqttUrl, oneOf, postgresUrl, redisUrl, text, timesOfDay, wholeNumber } from './lib/setting-kinds';
import { checkTimeZone, defaultTimeZone } from './tracking/geofence-schedule';
import { DEFAULT_MAP_TILES, parseMapTiles, type MapTiles } from './lib/map-tiles-setting';
import { DEMO_ACCOUNTS } from './seed/demo-accounts';

/** How long the audit trail is kept unless AUDIT_RETENTION_DAYS says otherwise: a year, the least inspectors accept. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/**
 * Passwords this product publishes, never a site's own (decision 094): the one the env example shipped, the docs'
 * examples and the demo accounts'. Compared without case, quotes or repeated spaces (Docker keeps an env file's quotes).
 */
const PUBLISHED_PASSWORDS = new Set(
  ['change this long passphrase', 'a long passphrase', 'a new long passphrase', ...DEMO_ACCOUNTS.map((a) => a.password)].map(normalPassword),
);
function normalPassword(value: string): string {
  return value.trim().replace(/^(["'])(.*)\1$/, '$2').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A claim's name, or a dotted path to a nested one (`realm_access.roles`). */
const claimName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\w.:/-]+$/, 'must be a claim name (letters, digits, _ . : / -), like role or realm_access.roles');

/** Why an issuer URL is refused, or null: https, or http on the loopback only (a test provider). */
function issuerProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be the identity provider\'s issuer URL, like https://login.example.org/realms/prison';
  }
  if (url.protocol === 'https:') return null;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return url.protocol === 'http:' && loopback ? null : 'must be an https URL (http only on localhost)';
}

const configSchema = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: text(253)
    .regex(/^[\w.:%-]+$/, 'must be an address or host name to listen on, like 0.0.0.0, 127.0.0.1 or ::')
    .default('0.0.0.0'),
  DATABASE_URL: postgresUrl().optional(),
  /** With DATABASE_URL, turns cluster mode on: several processes, one prison (decision 036, docs/DEPLOYMENT.md). */
  REDIS_URL: redisUrl().optional(),
  /** How this process is named in /readyz and the logs of a cluster; host name and process id by default. */
  NODE_NAME: text(100).optional(),
  DATA_DIR: text(1024).default('./data'),
  ADMIN_USERNAME: text(100).optional(),
  ADMIN_PASSWORD: text(128)
    .refine(
      (value) => !PUBLISHED_PASSWORDS.has(normalPassword(value)),
      'must be a password of your own: this one is published (the env example, the docs or the demo accounts); set another, or leave it empty to have one generated and printed once',
    )
    .optional(),
  /**
   * The key that seals two-factor secrets at rest (decision 054): 64 hex digits, base64 of 32 bytes, or a passphrase
   * of at least 20 characters. Unset: a key file beside DATA_DIR, created on first start.
   */
  SECRET_KEY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const problem = value ? secretKeyProblem(value) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** Seeds demo data and runs the simulator. Defaults to on for the embedded database. */
  DEMO: flag().optional(),
  COOKIE_SECURE: flag().optional(),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: text(1024).optional(),
  BODY_LIMIT_BYTES: wholeNumber(1, 1_073_741_824).default(1_048_576),
  LOGIN_RATE_LIMIT_PER_MINUTE: wholeNumber(1, 1_000_000).default(30),
  OSMAND_PORT: wholeNumber(0, 65535).default(5055),
  /**
   * Every device must send its secret on every protocol (decision 038); unknown ids and wrong or missing secrets get
   * one 401. false: only devices marked "secret required" must; the others may report on OsmAnd by id (decision 006).
   */
  DEVICE_SECRET_REQUIRED: flag().default(true),
  /** Device credential failures one address may make in a minute; beyond, its failures answer 429 for a minute. */
  DEVICE_AUTH_FAILURES_PER_MINUTE: wholeNumber(1, 100_000).default(20),
  /** Heavy questions (investigations, history, replay, exports) one account may have running at once; beyond, 429. */
  HEAVY_QUERIES_PER_ACCOUNT: wholeNumber(1, 100).default(2),
  HEAVY_QUERIES_TOTAL: wholeNumber(1, 1000).default(5),
  /** Milliseconds a heavy question may work before it answers 400 asking to be narrowed. */
  HEAVY_QUERY_TIMEOUT_MS: wholeNumber(1, 600_000).default(20_000),
  /**
   * Bearer token a Traccar server sends with its JSON position forwarder (`forward.header`, decision 106), 16-200
   * printable characters; unset: POST /api/v1/ingest/traccar is off (404).
   */
  TRACCAR_FORWARD_TOKEN: text(200)
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces')
    .optional(),
  /** The site's MQTT broker where indoor readers publish their sightings (decision 067); unset: readers use HTTP only. */
  MQTT_URL: mqttUrl().optional(),
  /** An RTLS publishing tag positions in plan metres on MQTT_URL's broker, in this vendor's format; unset: none. */
  RTLS_FORMAT: oneOf(['pozyx']).optional(),
  /** The topic the RTLS publishes positions on (Pozyx: `tags`). */
  RTLS_TOPIC: text(200)
    .regex(/^[^#+\s]+$/, 'must be an MQTT topic without wildcards, like tags')
    .default('tags'),
  /** The pixel of the default site plan where the RTLS has its origin (x 0, y 0), as `x,y`. */
  RTLS_PLAN_ORIGIN: text(40)
    .regex(/^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/, 'must be the pixel x,y of the RTLS origin on the default site plan, like 120,860')
    .default('0,0'),
  /** The accuracy of an RTLS fix when the vendor's message reports none (metres). */
  RTLS_ACCURACY_M: decimalNumber({ greaterThan: 0, max: 100 }).default(0.3),
  /** A reader not heard for this long raises a Warning alert and shows grey (decision 067). */
  READER_SILENT_SECONDS: decimalNumber({ greaterThan: 0, max: 86_400 }).default(60),
  DEVICE_OFFLINE_SECONDS: decimalNumber({ greaterThan: 0, max: 7 * 86_400 }).default(DEFAULT_DEVICE_OFFLINE_SECONDS),
  /**
   * A tracker offline for less than this past DEVICE_OFFLINE_SECONDS and back raises no alert: a lift or a stairwell is
   * not work for the control room. 0: the alert comes with the offline mark.
   */
  OFFLINE_GRACE_SECONDS: wholeNumber(0, 86_400).default(DEFAULT_OFFLINE_GRACE_SECONDS),
  /** An Informational zone alert (someone entered the Exercise Yard) counts as work: open queue, counts, toasts. */
  ZONE_ENTRIES_NEED_ACTION: flag().default(false),
  POSITION_RETENTION_DAYS: decimalNumber({ greaterThan: 0, max: 36_500 }).default(365),
  /** Resolved alerts (and their deliveries) older than this are deleted; unset keeps every alert (decision 061). */
  ALERT_RETENTION_DAYS: decimalNumber({ greaterThan: 0, max: 36_500 }).optional(),
  /**
   * Audit entries older than this are deleted, oldest first in the chain's order, behind a signed anchor (decision 104).
   * A year by default, what inspectors ask for at least; 36500 keeps the trail for good.
   */
  AUDIT_RETENTION_DAYS: decimalNumber({ greaterThan: 0, max: 36_500 }).default(DEFAULT_AUDIT_RETENTION_DAYS),
  /**
   * The map's background (decision 065): `off` (the site plan alone), a local .pmtiles or .mbtiles file the
   * server reads and serves at /api/v1/tiles, or a tile URL template holding {z}, {x} and {y}.
   */
  MAP_TILES: text(2048)
    .optional()
    .transform((value, context) => {
      const tiles = value === undefined ? undefined : parseMapTiles(value);
      if (typeof tiles === 'string') {
        context.addIssue({ code: 'custom', message: tiles });
        return z.NEVER;
      }
      return tiles;
    }),
  /** Deprecated: the tile URL template MAP_TILES replaces; read when MAP_TILES is not set. */
  MAP_TILE_URL: text(2048)
    .refine((url) => parseMapTiles(url) !== null && typeof parseMapTiles(url) !== 'string', {
      message: 'must be a tile URL template holding {z}, {x} and {y}, like https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    })
    .optional(),
  MAP_CENTER_LAT: decimalNumber({ min: -90, max: 90 }).default(51.5007),
  MAP_CENTER_LNG: decimalNumber({ min: -180, max: 180 }).default(-0.1246),
  SIMULATOR_DEVICES: wholeNumber(0, 100_000).optional(),
  /** The prison's time zone (IANA name, e.g. Europe/London): geofence schedules are read in it (decision 034). */
  TZ: z
    .string()
    .optional()
    .transform((value, context) => {
      // ":/etc/localtime" (a file, as glibc reads TZ) or nothing: the process's own zone.
      const name = value?.trim() && !value.trim().startsWith(':') ? value.trim() : defaultTimeZone();
      try {
        return checkTimeZone(name);
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a time zone name like Europe/London or UTC' });
        return z.NEVER;
      }
    }),
  /**
   * Roll counts (decision 062): scheduled count times in TZ; each reminds the blocks' officers, and a block
   * not counted 15 minutes after a time raises a Warning. `off`: no scheduled counts.
   */
  COUNT_TIMES: timesOfDay(48).default(DEFAULT_COUNT_TIMES.split(',')),
  // Device fixes (docs/decisions/011): a fix dated further ahead of the server clock than this is refused.
  MAX_FUTURE_SECONDS: wholeNumber(0, 86_400).default(300),
  // Keep-apart pairs on live positions (decision 032).
  /** Two trackers of an active keep-apart pair this close (metres) raise a Warning, once per meeting. */
  KEEP_APART_METRES: decimalNumber({ greaterThan: 0, max: 10_000 }).default(15),
  /** A meeting ends when the pair is further apart than KEEP_APART_METRES plus this; only then can the next one alert. */
  KEEP_APART_HYSTERESIS_METRES: decimalNumber({ min: 0, max: 10_000 }).default(5),
  // Login (decision 013).
  /**
   * Whose X-Forwarded-For is believed: off (default: the socket address is the client), `true` (any: only behind a
   * proxy that overwrites the header), a hop count, or comma-separated proxy addresses, CIDRs or proxy-addr names
   * (loopback, linklocal, uniquelocal).
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === undefined)
        ctx.addIssue({
          code: 'custom',
          message: 'must be true, false, a hop count or comma-separated addresses/CIDRs',
        });
      return parsed ?? false;
    }),
  /** Every admin without two-factor login must enrol before reaching any other screen. */
  REQUIRE_TOTP: flag().default(false),
  // POST /alert/all (docs/decisions/019): the spec's client re-posts every live alert it receives.
  /** A post repeating an alert stored this many seconds ago or less (same device, type and text) stores nothing. */
  ALERT_ECHO_WINDOW_SECONDS: wholeNumber(1, 86_400).default(300),
  /**
   * New alerts one account may store through POST /alert/all per minute, all its sessions together; repeats answered
   * from the window are free.
   */
  ALERT_POST_RATE_PER_MINUTE: wholeNumber(1, 1_000_000).default(60),
  // Observation checks (decision 063): each level's interval in minutes; a prisoner's own overrides it.
  /** Minutes between checks of a prisoner on standard observation (1-1440). */
  OBSERVATION_STANDARD_MINUTES: wholeNumber(1, 1440).default(60),
  /** Minutes between checks on enhanced observation. */
  OBSERVATION_ENHANCED_MINUTES: wholeNumber(1, 1440).default(30),
  /** Minutes between checks on high observation (at risk of suicide). */
  OBSERVATION_HIGH_MINUTES: wholeNumber(1, 1440).default(15),
  /** Minutes between the recorded checks of a prisoner on constant observation (watched continuously besides). */
  OBSERVATION_CONSTANT_MINUTES: wholeNumber(1, 1440).default(5),
  /**
   * Staff in danger: a staff tracker inside the site that has not moved more than 2 m for this many
   * seconds raises "Officer NAME may be down" (Critical), once per still period.
   */
  MAN_DOWN_SECONDS: wholeNumber(1, 86_400).default(120),
  // Escalation of unacknowledged Critical alerts by email and webhook (decision 060).
  /** A Critical alert still unacknowledged this many seconds after it was stored is sent to the channels below. */
  ESCALATE_AFTER_SECONDS: wholeNumber(0, 86_400).default(120),
  /** nodemailer's connection URL, smtp://user:password@host:587 or smtps://...:465; with ALERT_EMAIL_TO: email on. */
  SMTP_URL: text(2000)
    .refine((value) => /^smtps?:\/\/[^/\s]+/.test(value), 'must be an smtp:// or smtps:// URL like smtp://user:password@mail.example:587')
    .optional(),
  /** Comma-separated addresses (at most 20). */
  ALERT_EMAIL_TO: text(2000)
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .refine((list) => list.length <= 20 && list.every((address) => /^[^\s@<>,]+@[^\s@<>,]+$/.test(address)), 'must be up to 20 comma-separated email addresses')
    .optional(),
  /** The sender: an address, alone or with a display name (`Prison Control <alerts@prison.example>`). */
  ALERT_EMAIL_FROM: text(300)
    .refine(
      (value) => /^[^\s@<>,]+@[^\s@<>,]+$/.test(value.trim()) || /^[^<>@,"]*<[^\s@<>,]+@[^\s@<>,]+>$/.test(value.trim()),
      'must be an email address, like alerts@prison.example or Prison Control <alerts@prison.example>',
    )
    .optional(),
  /**
   * The address staff open the app at (https://control.prison.example, with a path if the proxy adds one): every
   * escalation email and webhook then links to its alert. Unset: they carry no link.
   */
  PUBLIC_URL: text(2000)
    .transform((value, context) => {
      const problem = 'must be the http(s) address staff open the app at, like https://control.prison.example';
      try {
        const url = new URL(value.trim());
        if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash)
          return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
      } catch {
        // not a URL: refused below
      }
      context.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    })
    .optional(),
  /** http(s) URL that receives a signed JSON POST per escalated alert. */
  ALERT_WEBHOOK_URL: text(2000)
    .refine((value) => /^https?:\/\/[^/\s]+/.test(value), 'must be an http:// or https:// URL')
    .optional(),
  /** The HMAC-SHA256 key of X-Signature-256 (at least 16 characters); required with ALERT_WEBHOOK_URL. */
  ALERT_WEBHOOK_SECRET: text(500).min(16, 'must be at least 16 characters').optional(),
  /** The first retry's delay after a failed send; each next one doubles, at most 10 minutes apart. */
  ESCALATION_RETRY_SECONDS: decimalNumber({ min: 0.05, max: 600 }).default(30),
  /** How long a failed send is retried before it is marked failed (an hour). */
  ESCALATION_RETRY_FOR_SECONDS: decimalNumber({ min: 1, max: 86_400 }).default(3600),
  // Monitoring (decision 059).
  /** Bearer token Prometheus sends to GET /metrics (16-200 printable characters); unset: /metrics is off (404). */
  METRICS_TOKEN: text(200)
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces')
    .optional(),
  // Sessions and socket origins (decision 012).
  /** A session ends after this many minutes without user activity; 0 (never empty) turns it off (a wall display). */
  SESSION_IDLE_MINUTES: wholeNumber(0, 24 * 60).default(30),
  /**
   * Other origins whose pages may call the API and open the socket with credentials (CORS, the cross-origin guard;
   * decision 016), comma-separated (e.g. http://localhost:5173 for a proxied dev client, https://control.example:8443).
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => {
      const origins: string[] = [];
      for (const entry of value.split(',').map((part) => part.trim()).filter(Boolean)) {
        const origin = parseConfiguredOrigin(entry);
        if (!origin) {
          context.addIssue({ code: 'custom', message: `must be comma-separated origins like https://control.example:8443 ('${entry}' is not one)` });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
  // Scheduled backups while the server runs (decision 058); no BACKUP_DIR: none.
  /** Where scheduled backups are written. */
  BACKUP_DIR: text(1000).optional(),
  /** Hours between scheduled backups (fractions allowed; at most 24 days, a timer's limit). */
  BACKUP_EVERY_HOURS: decimalNumber({ greaterThan: 0, max: 576 }).default(24),
  /** Scheduled backups kept in BACKUP_DIR: the newest N. */
  BACKUP_KEEP: wholeNumber(1, 1000).default(7),
  /**
   * The key every backup is sealed with (decision 094), in SECRET_KEY's forms; unset: SECRET_KEY, else the key file
   * beside DATA_DIR. Without the key a backup cannot be read or restored.
   */
  BACKUP_KEY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const problem = value ? secretKeyProblem(value) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /**
   * The pgBackRest stanza that backs this PostgreSQL up, when it is pgBackRest that does (decision 113): /metrics then
   * reads the age of its newest good backup from `pgbackrest info`. Unset: only the built-in backups are watched.
   */
  PGBACKREST_STANZA: text(64)
    .regex(/^[A-Za-z0-9][\w.-]*$/, 'must be a pgBackRest stanza name (letters, digits, _ . -), like prison')
    .optional(),
  // Single sign-on with OpenID Connect (decision 052); no OIDC_ISSUER: single sign-on is off.
  /** The identity provider's issuer URL (https; http only on this machine's loopback, for tests). */
  OIDC_ISSUER: z
    .string()
    .optional()
    .transform((value, context) => {
      const text = value?.trim();
      if (!text) return undefined;
      const problem = issuerProblem(text);
      if (problem) {
        context.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return text;
    }),
  OIDC_CLIENT_ID: z.string().trim().max(500).optional(),
  /** Absent: a public client (PKCE alone); present: sent as HTTP Basic (client_secret_basic). */
  OIDC_CLIENT_SECRET: z.string().max(2000).optional(),
  /** The claim holding the role (a role's API value, or a list holding exactly one); a dotted path reaches a nested one. */
  OIDC_ROLE_CLAIM: claimName.default('role'),
  /** The claim holding the caseload's block names (a list, or one name); absent or empty: every block. */
  OIDC_BLOCKS_CLAIM: claimName.default('blocks'),
  /** Scopes asked for, space-separated; must hold `openid`. */
  OIDC_SCOPES: z
    .string()
    .trim()
    .max(1000)
    .default('openid profile')
    .refine((value) => value.split(/\s+/).includes('openid'), 'must include openid'),
  /**
   * The callback URL registered at the provider. Unset: this server's own origin as the browser reached it plus
   * /api/v1/auth/oidc/callback (set it behind a proxy that changes the scheme or host).
   */
  OIDC_REDIRECT_URI: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || /^https?:\/\/[^/]+\/.*/.test(value), 'must be a full http(s) URL'),
});

/** TRUST_PROXY as Fastify's `trustProxy` option; undefined when it is none of the accepted forms. */
export function parseTrustProxy(value: string): boolean | number | string[] | undefined {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  const addresses = text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  // IPv4 or IPv6 with an optional /prefix, or proxy-addr's names (loopback, linklocal, uniquelocal).
  const valid = (a: string) =>
    /^[\d.:a-f]+(\/\d{1,3})?$/.test(a) || ['loopback', 'linklocal', 'uniquelocal'].includes(a);
  return addresses.length > 0 && addresses.every(valid) ? addresses : undefined;
}

export type RawConfig = z.infer<typeof configSchema>;
export interface Config extends Omit<RawConfig, 'DEMO' | 'MAP_TILES' | 'MAP_TILE_URL'> {
  DEMO: boolean;
  /** MAP_TILES, else the deprecated MAP_TILE_URL, else OpenStreetMap's tiles. */
  MAP_TILES: MapTiles;
}

/** Every variable the server reads, in the order declared (tests walk this list, so a new one is tested too). */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as (keyof RawConfig)[];

/** Variables that need another: [variable, the one it needs, why]. */
const NEEDS: [keyof RawConfig, keyof RawConfig, string][] = [
  // Processes of one cluster share one database: an embedded one belongs to one process.
  ['REDIS_URL', 'DATABASE_URL', 'REDIS_URL needs DATABASE_URL (PostgreSQL) too: the processes of a cluster share one database'],
  ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_ISSUER needs OIDC_CLIENT_ID too: the client id registered at the provider'],
  ['SMTP_URL', 'ALERT_EMAIL_TO', 'SMTP_URL needs ALERT_EMAIL_TO too: the addresses escalated alerts are sent to'],
  ['ALERT_WEBHOOK_URL', 'ALERT_WEBHOOK_SECRET', 'ALERT_WEBHOOK_URL needs ALERT_WEBHOOK_SECRET too: the key its messages are signed with'],
];

/** The configuration, or a ConfigError listing every problem at once (one line each, naming the variable). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { values, problems } = readVariables(env, CONFIG_VARIABLES);
  const parsed = configSchema.safeParse(values);
  for (const issue of parsed.error?.issues ?? []) {
    const name = String(issue.path[0]);
    if (!problems.has(name)) problems.set(name, describeIssue(name, issue, values[name]));
  }
  for (const [name, needed, why] of NEEDS) {
    if (values[name] !== undefined && values[needed] === undefined && !problems.has(name)) problems.set(name, why);
  }
  if (!parsed.success || problems.size > 0) {
    const order = (name: string) => CONFIG_VARIABLES.indexOf(name as keyof RawConfig);
    throw new ConfigError([...problems].sort(([a], [b]) => order(a) - order(b)).map(([, line]) => line));
  }
  const raw = parsed.data;
  const { MAP_TILE_URL, ...rest } = raw;
  const tiles = raw.MAP_TILES ?? (MAP_TILE_URL ? parseMapTiles(MAP_TILE_URL) : DEFAULT_MAP_TILES);
  return { ...rest, DEMO: raw.DEMO ?? !raw.DATABASE_URL, MAP_TILES: typeof tiles === 'string' ? DEFAULT_MAP_TILES : tiles };
}

/** loadConfig for a process: a refused configuration is printed (every problem, no stack trace) and ends it. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    return exitOnConfigError(error);
  }
}
