// The browsers of bench/snapshots, in their own thread so the server keeps the main one: logged-in socket.io-client
// connections that ask for deltas or for nothing, counting the position events they receive, their bytes, and the
// time from the server's tick (the clock device's `at`) to the parsed event.
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import type { LocationChanges, LocationSnapshot } from '@prison/shared';

export interface BrowsersOptions {
  baseUrl: string;
  cookie: string;
  browsers: number;
  deltas: boolean;
  /** The device whose `at` the server sets to the tick's start. */
  clockDevice: string;
}

export interface BrowsersResult {
  /** Position events received per browser while measuring. */
  events: number[];
  /** Message bytes received per browser while measuring. */
  bytes: number[];
  latenciesMs: number[];
}

/** Messages from the main thread: `measure` starts counting (after every browser has its connect snapshot). */
export type BrowsersCommand = 'measure' | 'stop';

const options = workerData as BrowsersOptions;
const port = parentPort!;
let measuring = false;
const events = new Array<number>(options.browsers).fill(0);
const bytes = new Array<number>(options.browsers).fill(0);
const latenciesMs: number[] = [];
let snapshotsAtConnect = 0;

function record(index: number, at: string | undefined): void {
  if (!measuring) return;
  events[index]!++;
  if (at) latenciesMs.push(Date.now() - Date.parse(at));
}

const sockets: Socket[] = [];
for (let i = 0; i < options.browsers; i++) {
  const socket = io(options.baseUrl, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: options.cookie },
    auth: options.deltas ? { deltas: true } : {},
  });
  socket.on('connect', () => {
    socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
      if (measuring && packet.type === 'message' && typeof packet.data === 'string') bytes[i]! += Buffer.byteLength(packet.data);
    });
  });
  socket.on('connect_error', (error) => port.postMessage({ error: `browser ${i}: ${error.message}` }));
  socket.on('locationUpdate', (set: LocationSnapshot) => {
    if (!measuring) {
      if (++snapshotsAtConnect === options.browsers) port.postMessage('ready');
      return;
    }
    record(i, set[options.clockDevice]?.at);
  });
  socket.on('locationChanges', (changes: LocationChanges) => record(i, changes.changed[options.clockDevice]?.at));
  sockets.push(socket);
}

port.on('message', (command: BrowsersCommand) => {
  if (command === 'measure') {
    measuring = true;
    return;
  }
  measuring = false;
  for (const socket of sockets) socket.disconnect();
  port.postMessage({ events, bytes, latenciesMs } satisfies BrowsersResult);
});
