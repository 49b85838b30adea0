// The browsers of bench/snapshots, in their own thread so the server keeps the main one. Fifty browsers in one thread
// cannot each parse 2 MB a second (real browsers are fifty machines), so one of them is a real socket.io-client that
// parses every event, and the others speak the Socket.IO protocol over a bare WebSocket: they count events and bytes
// and read the clock device's `at` without parsing. All of them cost the server exactly what a browser costs.
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
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
  /** Tick start to the event's arrival, every browser. */
  receivedMs: number[];
  /** Tick start to the parsed event in the socket.io-client browser. */
  parsedMs: number[];
}

/** Messages from the main thread: `measure` starts counting (after every browser has its connect snapshot). */
export type BrowsersCommand = 'measure' | 'stop';

const options = workerData as BrowsersOptions;
const port = parentPort!;
let measuring = false;
const events = new Array<number>(options.browsers).fill(0);
const bytes = new Array<number>(options.browsers).fill(0);
const receivedMs: number[] = [];
const parsedMs: number[] = [];
const closers: (() => void)[] = [];
let connected = 0;
const snapshotArrived = () => {
  if (++connected === options.browsers) port.postMessage('ready');
};

// Browser 0: socket.io-client, as a browser's page uses it.
{
  const socket = io(options.baseUrl, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: options.cookie },
    auth: options.deltas ? { deltas: true } : {},
  });
  socket.on('connect', () => {
    socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
      if (measuring && packet.type === 'message' && typeof packet.data === 'string') bytes[0]! += Buffer.byteLength(packet.data);
    });
  });
  socket.on('connect_error', (error) => port.postMessage({ error: `browser 0: ${error.message}` }));
  const parsed = (at: string | undefined) => {
    if (!measuring) return;
    events[0]!++;
    if (at) {
      const ms = Date.now() - Date.parse(at);
      parsedMs.push(ms);
      receivedMs.push(ms);
    }
  };
  socket.once('locationUpdate', snapshotArrived);
  socket.on('locationUpdate', (set: LocationSnapshot) => parsed(set[options.clockDevice]?.at));
  socket.on('locationChanges', (changes: LocationChanges) => parsed(changes.changed[options.clockDevice]?.at));
  closers.push(() => socket.disconnect());
}

// Browsers 1..n-1: the Engine.IO v4 / Socket.IO v5 protocol by hand ("0" open, "2"/"3" ping/pong, "40" connect to the
// main namespace with the handshake auth, "42[...]" an event).
const url = `${options.baseUrl.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
const clockKey = `"${options.clockDevice}":{`;
for (let i = 1; i < options.browsers; i++) {
  const ws = new WebSocket(url, { headers: { cookie: options.cookie } });
  let hadSnapshot = false;
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return;
    const text = data.toString();
    if (text === '2') return ws.send('3');
    if (text.startsWith('0')) return ws.send(`40${JSON.stringify(options.deltas ? { deltas: true } : {})}`);
    if (text.startsWith('44')) return port.postMessage({ error: `browser ${i}: ${text}` });
    const isSet = text.startsWith('42["locationUpdate"');
    if (!isSet && !text.startsWith('42["locationChanges"')) return;
    if (!hadSnapshot) {
      hadSnapshot = true;
      snapshotArrived();
      return;
    }
    if (!measuring) return;
    events[i]!++;
    bytes[i]! += data.length;
    const key = text.indexOf(clockKey);
    const atField = key < 0 ? -1 : text.indexOf('"at":"', key);
    if (atField >= 0) receivedMs.push(Date.now() - Date.parse(text.slice(atField + 6, atField + 30)));
  });
  ws.on('error', (error) => port.postMessage({ error: `browser ${i}: ${error.message}` }));
  closers.push(() => ws.close());
}

port.on('message', (command: BrowsersCommand) => {
  if (command === 'measure') {
    measuring = true;
    return;
  }
  measuring = false;
  for (const close of closers) close();
  port.postMessage({ events, bytes, receivedMs, parsedMs } satisfies BrowsersResult);
});
