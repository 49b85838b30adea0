// Helpers for the tracking tests: a listening app (real HTTP and Socket.IO clients), prisoners, devices, sockets.
import type { AddressInfo } from 'node:net';
import { beforeAll } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { BrowserHandshakeAuth, ClientToServerEvents, DeviceCreated, ServerToClientEvents } from '@prison/shared';
import type { Config } from '../config';
import { prisoners } from '../db/schema';
import { useTestApp, type TestContext } from '../../test/test-app';
import type { Engine } from '../../test/test-db';

export type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ListeningContext extends TestContext {
  baseUrl: string;
  osmandUrl: string;
}

/** The real app on a fresh database, listening on free ports (the OsmAnd port too). */
export function useListeningApp(engine: Engine, overrides: Partial<Config> = {}): () => ListeningContext {
  const ctx = useTestApp(engine, { OSMAND_PORT: 0, HOST: '127.0.0.1', ...overrides });
  let listening: ListeningContext | undefined;
  beforeAll(async () => {
    const { app } = ctx();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    // The OsmAnd port opens in an onListen hook, which `listen` does not wait for.
    for (let i = 0; i < 100 && app.osmandPort() === null; i++) await new Promise((r) => setTimeout(r, 20));
    listening = { ...ctx(), baseUrl: `http://127.0.0.1:${port}`, osmandUrl: `http://127.0.0.1:${app.osmandPort()}` };
  });
  return () => {
    if (!listening) throw new Error('app not listening');
    return listening;
  };
}

let prisonerCounter = 0;
export async function addPrisoner(ctx: TestContext, firstName = 'John', lastName = `Doe${++prisonerCounter}`): Promise<{ id: number; name: string }> {
  const [row] = await ctx.database.db
    .insert(prisoners)
    .values({ firstName, lastName, status: 'Incarcerated' })
    .returning({ id: prisoners.prisonerId });
  return { id: row!.id, name: `${firstName} ${lastName}` };
}

let badgeCounter = 0;
/** A police officer (or guard) through the staff API, as the escorts need them (decision 035). */
export async function addStaff(ctx: TestContext, firstName = 'Pat', lastName = `Officer${++badgeCounter}`, role: 'Police' | 'Guard' = 'Police'): Promise<{ id: number; name: string }> {
  const badge = String(Date.now() % 1_000_000_000).slice(-6) + String(++badgeCounter).padStart(3, '0');
  const res = await ctx.api('POST', '/staff/add', { first_name: firstName, last_name: lastName, role, badge_number: badge });
  if (res.statusCode !== 200) throw new Error(`staff creation failed: ${res.body}`);
  return { id: res.json<{ staff_id: number }>().staff_id, name: `${firstName} ${lastName}` };
}

/** Registers a tracker through the API: a phone unless `body` says `kind: 'tag'`. */
export async function addDevice(ctx: TestContext, body: Record<string, unknown> = {}): Promise<DeviceCreated> {
  const res = await ctx.api('POST', '/devices', { kind: 'phone', ...body });
  if (res.statusCode !== 201) throw new Error(`device registration failed: ${res.body}`);
  return res.json<DeviceCreated>();
}

/** A browser's socket; `auth: { deltas: true }` is what our web app sends, nothing is what the spec's client sends. */
export function browserSocket(baseUrl: string, cookie?: string, auth: BrowserHandshakeAuth = {}): BrowserSocket {
  return connect(baseUrl, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: cookie ? { cookie } : {},
    auth,
  });
}

export function deviceSocket(baseUrl: string, auth: Record<string, string>): BrowserSocket {
  return connect(baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, auth });
}

/** Resolves with the first event that satisfies `match`, or rejects after `ms`. */
export function nextEvent<T>(socket: Socket, event: string, match: (payload: T) => boolean = () => true, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

/** GET through the OsmAnd port with these query parameters. */
export async function osmandGet(url: string, params: Record<string, string | number>): Promise<{ status: number; body: { message: string } }> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(`${url}/?${query}`);
  return { status: res.status, body: (await res.json()) as { message: string } };
}
