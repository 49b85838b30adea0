// Security headers, a Content-Security-Policy the app works under, CORS for ALLOWED_ORIGINS only, and no cross-origin
// API writes from any other origin.
import helmet from 'helmet';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../lib/http-errors';
import { isListedOrigin, isTrustedOrigin } from '../lib/origins';
import type { MapTiles } from '../lib/map-tiles-setting';

/** The origin of another server's tiles, the one origin beside ours images may come from; none for `off` or a file. */
function tileOrigin(tiles: MapTiles): string | null {
  if (tiles.kind !== 'url') return null;
  const tileUrl = tiles.template;
  try {
    const url = new URL(tileUrl.replace(/\{[a-z]\}/g, 'a'));
    return `${url.protocol}//${url.host.replace(/^a\./, '*.')}`;
  } catch {
    return null;
  }
}

/** Each allowed origin and its WebSocket form (https -> wss, http -> ws). */
export function connectSources(allowedOrigins: readonly string[]): string[] {
  return allowedOrigins.flatMap((origin) => [origin, origin.replace(/^http/, 'ws')]);
}

/**
 * Powerful browser features the app never uses, denied to its pages and anything they embed (decision 043): a script
 * that slipped in cannot turn on a camera, a microphone or the location of the control-room machine. Only features
 * Chromium knows, so the console stays free of "Unrecognized feature" errors.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'serial',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

export async function registerSecurity(app: FastifyInstance) {
  const tiles = tileOrigin(app.config.MAP_TILES);
  // Built once: @fastify/helmet rebuilds the middleware (and re-parses the CSP) on every request, which cost 4 % of
  // the CPU of a busy prisoner list.
  const setSecurityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Leaflet and React set inline style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        // 'self' covers this host's ws: and wss: (CSP 3); other hosts only when ALLOWED_ORIGINS names them.
        'connect-src': ["'self'", ...connectSources(app.config.ALLOWED_ORIGINS)],
        'media-src': ["'self'", 'data:'],
        'upgrade-insecure-requests': null,
      },
    },
    // Tiles come from another origin.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    setSecurityHeaders(request.raw, reply.raw, () => done());
  });
  await app.register(rateLimit, { global: false });

  // A page of ALLOWED_ORIGINS (the spec's client on its own origin, decision 016) may call the API with credentials:
  // its preflight is answered here, before authentication (browsers send no cookie on a preflight). Any other origin
  // gets no CORS header at all, so its browser keeps the answer from the page.
  const allowedOrigins = app.config.ALLOWED_ORIGINS;
  // Its catch-all `OPTIONS *` route reads no data: any signed-in role may reach it (decision 050).
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...route.config, access: 'self' };
  });
  await app.register(cors, {
    origin: (origin, callback) => callback(null, isListedOrigin(origin, allowedOrigins)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
  });

  // Browsers send Origin on cross-site writes; refuse any from a page that is neither this server's nor one of
  // ALLOWED_ORIGINS (the cookie is SameSite=Lax too). A proxy in front rewrites Host but not Origin, so a proxied
  // client's origin must be listed. Every write is checked, whatever its path: the URL text says nothing about which
  // route will answer it. OPTIONS too: a listed origin's preflight has been answered above, any other is refused.
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!isTrustedOrigin(origin, request.headers.host, allowedOrigins)) throw forbidden('Cross-origin requests are not allowed');
  });
}
