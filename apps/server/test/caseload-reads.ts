// The caseload on every read route and every socket event (decision 093), found from the app rather than remembered:
// every GET route the app registered is asked, as an officer of one block, for what a world with another block holds;
// every event name the server's source emits is watched on that officer's socket while the other block's prisoners
// move, breach, are acknowledged and go offline. What is not about a block's data says so here, with why. The
// caseload-everywhere test runs it on the real app, and on a test-only app with a deliberately leaking route and
// event, to show that it catches them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { roleMay, type Role } from '@prison/shared';
import type { RegisteredRoute } from '../src/app';

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/**
 * GET routes that serve no block's data, each with why. A route not listed is probed: the officer must see nothing
 * of the other block through it, and an administrator must, or the probe proves nothing and the test fails.
 */
export const NOT_BLOCK_DATA: Record<string, string> = {
  'GET /api/docs': 'the API documentation',
  'GET /api/docs/static/index.html': 'the API documentation',
  'GET /api/docs/static/swagger-initializer.js': 'the API documentation',
  'GET /api/docs/json': 'the API documentation',
  'GET /api/docs/yaml': 'the API documentation',
  'GET /api/docs/static/*': 'the API documentation',
  'GET /healthz': 'liveness: no record',
  'GET /readyz': 'readiness, version and links: no record',
  'GET /metrics': 'figures without names or ids, behind METRICS_TOKEN (decision 059)',
  'GET /api/v1/admin/verify-token': "the session's own account",
  'GET /api/v1/auth/oidc': 'whether single sign-on is configured',
  'GET /api/v1/auth/oidc/start': 'the single sign-on flow',
  'GET /api/v1/auth/oidc/callback': 'the single sign-on flow',
  'GET /api/v1/ingest/osmand': "a tracker's protocol: it answers the tracker, not a browser",
  'GET /api/v1/settings': "the prison's settings",
  'GET /api/v1/profile': "the account's own profile",
  'GET /api/v1/profile/totp': "the account's own two-factor login",
  'GET /api/v1/profile/sessions': "the account's own sessions",
  'GET /api/v1/profile/critical-sound': "the account's own Critical sound setting",
  'GET /api/v1/escalation/settings': 'whether escalation is configured, and its delay: no record',
  'GET /api/v1/admins': 'the accounts (administrators only)',
  'GET /api/v1/staff/getbyRole/:role': 'staff are no block\'s: items about nobody are everyone\'s (decision 051)',
  'GET /api/v1/staff/:id': 'staff are no block\'s: items about nobody are everyone\'s (decision 051)',
  'GET /api/v1/geofence/all': "geofences are the prison's, their applies_to ids without names (decision 076)",
  'GET /api/v1/blocks/areas': "the blocks' outlines on the map: the prison's ground, no prisoner (decision 062)",
  'GET /api/v1/readers': 'fixed indoor readers: places, no prisoner (decision 067)',
  'GET /api/v1/pending-changes/weakened': 'weakened zones for every staff screen\'s banner: the zone, who asked and approved, until when; no prisoner (decision 091)',
  'GET /api/v1/site-plans': "the site's plans (decision 065)",
  'GET /api/v1/site-plans/:id/image': "a site plan's picture (decision 065)",
  'GET /api/v1/tiles/:z/:x/:y': 'map tiles',
  'GET /api/v1/duress/current': "the account's own duress alarm: about its own person, no prisoner (decision 100)",
  'GET /api/v1/messages/handovers/pending':
    "the account's own handovers to confirm; their links are named through the caseload as GET /api/v1/messages's are (probed)",
};

/**
 * GET routes whose request names the people asked about in a form no declaration reads (`a=prisoner:7`), each with
 * where one outside is answered as unknown. Asked like a declared route: the officer must be shown nothing outside.
 */
export const NAMES_ITS_PEOPLE: Record<string, string> = {
  'GET /api/v1/location/contacts': 'investigations-service contactsOfPair: a prisoner outside is unknown (404), as the guard answers',
};

/** GET routes answering counts only (no name, no id, no block), each with the test that checks their caseload. */
export const COUNTS_ONLY: Record<string, string> = {
  'GET /api/v1/alert/stats/daily': 'caseload-matrix.test.ts: the chart counts what the caseload\'s list shows',
};

/**
 * Every event the server emits to browsers: `caseload` when it carries block data (then it is watched here, and must
 * reach the officer only for his block while the administrator gets the other block's), or why it carries none.
 */
export const EVENT_SCOPES: Record<string, 'caseload' | { notBlockData: string }> = {
  locationUpdate: 'caseload',
  locationChanges: 'caseload',
  showAlert: 'caseload',
  alertStatusChanged: 'caseload',
  userDisconnected: 'caseload',
  countDue: 'caseload',
  dataChanged: { notBlockData: 'a topic name only ("alerts", "incidents"): lists refetch through their caseload' },
  sessionEnded: { notBlockData: "to the session's own sockets: why it ended" },
  messagePosted: { notBlockData: 'a log entry between staff on duty without its links (each browser reads those through its caseload)' },
  serviceStatus: { notBlockData: 'whether the database answers' },
  clusterFeed: { notBlockData: 'whether the other server processes are reached' },
  accessRefused: { notBlockData: 'to the sending socket: which of its own events was refused' },
};

/** Every event name the server's source emits (`.emit('name'`), outside tests: the events a browser may receive. */
export function emittedEventNames(sourceRoot: string): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(entry) && !/\.test\.ts$/.test(entry)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/\.emit\(\s*['"]([A-Za-z]\w*)['"]/g)) names.add(match[1]!);
      }
    }
  };
  walk(sourceRoot);
  return [...names].sort();
}

export interface RouteProbe {
  routes: readonly RegisteredRoute[];
  officerRole: Role;
  /** The URL to ask a route (path parameters and query filled); undefined: the route's own URL, if it has no parameter. */
  urlFor(route: RegisteredRoute): string | undefined;
  get(as: 'officer' | 'administrator', url: string): Promise<{ statusCode: number; body: string }>;
  /** What names the blocks outside the officer's caseload (their names, ids, trackers), matched without case. */
  outside: RegExp;
}

/**
 * Whether an answer holds anything of the other blocks beyond what the request itself named: an unknown id's answer
 * repeats the id asked ("Prisoner 7 not found"), which tells nothing. A value of the request (a path segment or a query
 * value, or a part of it between : or ,) is taken out of the answer where it stands whole; a longer one holding it (a cell id "B-1" for block "B")
 * stays.
 */
export function showsOutside(outside: RegExp, body: string, asked = ''): boolean {
  const [path = '', query = ''] = asked.split('?');
  // A value may name a person as `prisoner:7` or several as `7,8`: each part too.
  const values = [...path.split('/'), ...new URLSearchParams(query).values()]
    .map(safeDecode)
    .flatMap((value) => [value, ...value.split(/[:,]/)])
    .filter((value) => outside.test(value));
  let rest = body;
  for (const value of values) {
    rest = rest.replace(new RegExp(`(?<![\\w-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g'), '');
  }
  return outside.test(rest);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface RouteFindings {
  /** Asked, and the officer was shown the other block's data. */
  leaking: string[];
  /** Not declared, and the administrator is shown nothing of the other block either: the probe proves nothing. */
  unproven: string[];
  /** With a path parameter and no request to fill it. */
  unrequested: string[];
  /** Declared in NOT_BLOCK_DATA, COUNTS_ONLY or NAMES_ITS_PEOPLE, but not a route of the app. */
  stale: string[];
  /** How many routes were asked, by the role's refusal or by their answer. */
  asked: number;
}

/** Asks every GET route as the officer (and, to prove the probe, as an administrator). */
export async function readRouteFindings(probe: RouteProbe): Promise<RouteFindings> {
  const findings: RouteFindings = { leaking: [], unproven: [], unrequested: [], stale: [], asked: 0 };
  const gets = probe.routes.filter((route) => route.method === 'GET');
  const keys = new Set(gets.map(routeKey));
  findings.stale = [...Object.keys(NOT_BLOCK_DATA), ...Object.keys(COUNTS_ONLY), ...Object.keys(NAMES_ITS_PEOPLE)].filter((key) => !keys.has(key));
  for (const route of gets) {
    const key = routeKey(route);
    if (key in NOT_BLOCK_DATA || key in COUNTS_ONLY) continue;
    const url = probe.urlFor(route) ?? (route.url.includes(':') || route.url.includes('*') ? undefined : route.url);
    if (url === undefined) {
      findings.unrequested.push(key);
      continue;
    }
    findings.asked += 1;
    const officer = await probe.get('officer', url);
    if (showsOutside(probe.outside, officer.body, url)) findings.leaking.push(`${key} (${url}): ${officer.body.slice(0, 300)}`);
    // Refused to the role (403) or naming a record (its caseload declaration: the matrix proves those): shown nothing.
    const refused = route.access !== undefined && !roleMay(probe.officerRole, route.access);
    if (refused || route.caseload || route.public || key in NAMES_ITS_PEOPLE) continue;
    const administrator = await probe.get('administrator', url);
    if (!showsOutside(probe.outside, administrator.body, url)) findings.unproven.push(`${key} (${url}): ${administrator.statusCode} ${administrator.body.slice(0, 200)}`);
  }
  return findings;
}

export interface Received {
  event: string;
  payload: unknown;
}

export interface EventFindings {
  /** Emitted by the source and not declared in EVENT_SCOPES. */
  undeclared: string[];
  /** Declared, and emitted nowhere in the source. */
  stale: string[];
  /** Received by the officer with something of the other block in it. */
  leaking: string[];
  /** A caseload event the administrator never received with the other block's data: the scenario proved nothing. */
  unexercised: string[];
}

export function eventFindings(
  emitted: readonly string[],
  officer: readonly Received[],
  administrator: readonly Received[],
  outside: RegExp,
): EventFindings {
  const declared = Object.keys(EVENT_SCOPES);
  const shown = (r: Received) => showsOutside(outside, JSON.stringify(r.payload));
  return {
    undeclared: emitted.filter((name) => !declared.includes(name)),
    stale: declared.filter((name) => !emitted.includes(name)),
    leaking: [...new Set(officer.filter(shown).map((r) => `${r.event}: ${JSON.stringify(r.payload).slice(0, 200)}`))],
    unexercised: declared.filter((name) => EVENT_SCOPES[name] === 'caseload' && !administrator.some((r) => r.event === name && shown(r))),
  };
}
