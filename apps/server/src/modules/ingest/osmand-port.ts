// The OsmAnd protocol on its own port (OSMAND_PORT, 5055 by default, as Traccar), for phones running Traccar
// Client: any path, GET query, form POST or JSON POST, handled exactly as /api/v1/ingest/osmand (credential failures
// throttled per address, decision 038).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../lib/database-errors';
import type { DatabaseHealth } from '../../lib/database-health';
import { HttpError } from '../../lib/http-errors';
import type { FixSink } from '../../tracking/ports';
import { DeviceFailuresThrottled, type DeviceAuthThrottle } from './device-auth-throttle';
import { ingestOsmand } from './ingest-service';

const MAX_BODY_BYTES = 64 * 1024;

/**
 * The query parameters of a request's URL, the last one of a repeated name, as `new URL(url).searchParams` gives
 * them (a property test holds the two equal): node's querystring costs a third of a WHATWG URL, and the OsmAnd port
 * parses one per fix (decision 049). The URL is bounded by the server's header size limit.
 */
export function queryParameters(url: string): Record<string, string> {
  const start = url.indexOf('?');
  if (start < 0) return {};
  const fragment = url.indexOf('#', start);
  const parsed = parseQueryString(url.slice(start + 1, fragment < 0 ? undefined : fragment), '&', '=', { maxKeys: 0 });
  // Without a prototype, a parameter named __proto__ is a parameter like any other.
  const parameters = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(parsed)) {
    const value = parsed[name]!;
    parameters[name] = typeof value === 'string' ? value : value[value.length - 1]!;
  }
  return parameters;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'Request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw.trim()) return undefined;
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw new HttpError(400, 'Body is not valid JSON');
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function send(response: ServerResponse, status: number, body: { message: string }, retryAfterSeconds?: number) {
  // A device asked to come back later may do so: the fix was not stored (the database is down or the server stopping,
  // or its address made too many credential failures).
  const retryAfter = retryAfterSeconds ?? (status === 503 ? DATABASE_RETRY_AFTER_SECONDS : undefined);
  const retry = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...retry });
  response.end(JSON.stringify(body));
}

export interface OsmandPortServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function startOsmandPort(
  tracking: FixSink,
  port: number,
  host: string,
  health: Pick<DatabaseHealth, 'failed'>,
  throttle: DeviceAuthThrottle,
): Promise<OsmandPortServer> {
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'GET' && request.method !== 'POST') return send(response, 405, { message: 'Use GET or POST' });
      const body = request.method === 'POST' ? parseBody(await readBody(request), request.headers['content-type']) : undefined;
      // No proxy's header is believed here: the socket's address is the client (a proxy in front is one address).
      const client = { address: request.socket.remoteAddress ?? 'unknown', throttle };
      const result = await ingestOsmand(tracking, queryParameters(request.url ?? '/'), body, client);
      send(response, 200, result);
    })().catch((error: unknown) => {
      if (error instanceof DeviceFailuresThrottled) return send(response, 429, { message: error.message }, error.retryAfterSeconds);
      if (error instanceof HttpError && error.statusCode < 500) return send(response, error.statusCode, { message: error.message });
      const unavailable = health.failed(error, 'OsmAnd port');
      send(response, 503, { message: unavailable ? DATABASE_UNAVAILABLE_MESSAGE : 'Fix not stored; send it again' });
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
