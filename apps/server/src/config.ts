// Every setting comes from the environment, checked once at start (the README lists them).
import { z } from 'zod';
import { DEFAULT_DEVICE_OFFLINE_SECONDS } from '@prison/shared';
import { parseConfiguredOrigin } from './lib/origins';
import { secretKeyProblem } from './lib/secret-key';
import { checkTimeZone, defaultTimeZone } from './tracking/geofence-schedule';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** A claim's name, or a dotted path to a nested one (`realm_access.roles`). */
const claimName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\w.:/-]+$/, 'must be a claim name (letters, digits, _ . : / -)');

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
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  /** With DATABASE_URL, turns cluster mode on: several processes, one prison (decision 036, docs/DEPLOYMENT.md). */
  REDIS_URL: z.string().optional(),
  /** How this process is named in /readyz and the logs of a cluster; host name and process id by default. */
  NODE_NAME: z.string().max(100).optional(),
  DATA_DIR: z.string().default('./data'),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
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
  DEMO: bool.optional(),
  COOKIE_SECURE: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  OSMAND_PORT: z.coerce.number().int().min(0).max(65535).default(5055),
  /**
   * Every device must send its secret on every protocol (decision 038); unknown ids and wrong or missing secrets get
   * one 401. false: only devices marked "secret required" must; the others may report on OsmAnd by id (decision 006).
   */
  DEVICE_SECRET_REQUIRED: bool.default(true),
  /** Device credential failures one address may make in a minute; beyond, its failures answer 429 for a minute. */
  DEVICE_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  DEVICE_OFFLINE_SECONDS: z.coerce.number().positive().default(DEFAULT_DEVICE_OFFLINE_SECONDS),
  POSITION_RETENTION_DAYS: z.coerce.number().positive().default(365),
  MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_CENTER_LAT: z.coerce.number().min(-90).max(90).default(51.5007),
  MAP_CENTER_LNG: z.coerce.number().min(-180).max(180).default(-0.1246),
  SIMULATOR_DEVICES: z.coerce.number().int().min(0).optional(),
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
        context.addIssue({ code: 'custom', message: `${name} is not a time zone name like Europe/London` });
        return z.NEVER;
      }
    }),
  // Device fixes (issue 9, docs/decisions/011): a fix dated further ahead of the server clock than this is refused.
  MAX_FUTURE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  // Keep-apart pairs on live positions (issue 12, decision 032).
  /** Two trackers of an active keep-apart pair this close (metres) raise a Warning, once per meeting. */
  KEEP_APART_METRES: z.coerce.number().positive().max(10_000).default(15),
  /** A meeting ends when the pair is further apart than KEEP_APART_METRES plus this; only then can the next one alert. */
  KEEP_APART_HYSTERESIS_METRES: z.coerce.number().min(0).max(10_000).default(5),
  // Login (issue 9, decision 013).
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
  REQUIRE_TOTP: bool.default(false),
  // POST /alert/all (issue 10, docs/decisions/019): the spec's client re-posts every live alert it receives.
  /** A post repeating an alert stored this many seconds ago or less (same device, type and text) stores nothing. */
  ALERT_ECHO_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** New alerts one session may store through POST /alert/all per minute; repeats answered from the window are free. */
  ALERT_POST_RATE_PER_MINUTE: z.coerce.number().int().positive().default(60),
  // Monitoring (issue 23, decision 059).
  /** Bearer token Prometheus sends to GET /metrics (16-200 printable characters); unset or empty: /metrics is off (404). */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(z.string().min(16, 'must be at least 16 characters').max(200).regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces').optional()),
  // Sessions and socket origins (decision 012).
  /** A session ends after this many minutes without user activity; 0 turns the idle timeout off (a wall display). */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(30),
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
          context.addIssue({ code: 'custom', message: `${entry} is not an origin like https://control.example:8443` });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
  // Single sign-on with OpenID Connect (issue 22, decision 052); no OIDC_ISSUER: single sign-on is off.
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
export interface Config extends Omit<RawConfig, 'DEMO'> {
  DEMO: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const raw = parsed.data;
  // Processes of one cluster share one database: an embedded one belongs to one process.
  if (raw.REDIS_URL && !raw.DATABASE_URL) throw new Error('Invalid configuration REDIS_URL: cluster mode needs DATABASE_URL (PostgreSQL) too');
  if (raw.OIDC_ISSUER && !raw.OIDC_CLIENT_ID) throw new Error('Invalid configuration OIDC_CLIENT_ID: single sign-on (OIDC_ISSUER) needs the client id registered at the provider');
  return { ...raw, DEMO: raw.DEMO ?? !raw.DATABASE_URL };
}
