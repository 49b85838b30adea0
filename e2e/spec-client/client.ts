// A stand-in for the web client docs/CLIENT-CONTRACT.md was written from, doing exactly what it was observed to do, and nothing of
// our own web app: it keeps its own JavaScript-readable `auth-cookie` marker, reads `response.data` as SPEC 7 writes
// it (axios: `response.data` is the body), turns geofence points into Leaflet LatLngs with `L.latLng(p.lat, p.lng)`,
// keeps markers from complete `locationUpdate` sets only (a key missing from a set is a marker removed), and re-posts
// every `showAlert` it receives to POST /alert/all. The test drives it through `window.specClient`.
import L from 'leaflet';
import { io, type Socket } from 'socket.io-client';

interface Response<T> {
  status: number;
  data: T;
}

/** axios's contract: resolves with `{ status, data: body }` on 2xx, rejects otherwise. */
async function request<T>(method: string, path: string, body?: unknown): Promise<Response<T>> {
  const response = await fetch(`/api/v1${path}`, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = (text ? JSON.parse(text) : undefined) as T;
  if (!response.ok)
    throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
      response: { status: response.status, data },
    });
  return { status: response.status, data };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The re-post's `date` (YYYY-MM-DD) and `timestamp` (YYYY-MM-DD HH:MM:SS), in the browser's local time. */
function localDateTime(now = new Date()) {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return { date, timestamp: `${date} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}` };
}

interface AlertEvent {
  index: string;
  alert_type: string;
  message: string;
}

/** docs/CLIENT-CONTRACT.md: "Levels: informational, warning, critical"; its client compares lowercase, any other reads as the first. */
const LEVELS = ['informational', 'warning', 'critical'];
const levelOf = (alertType: string) => (LEVELS.includes(alertType) ? alertType : 'informational');

interface LocationValue {
  id: unknown;
  latitude: number;
  longitude: number;
}

const state = {
  /** Markers as the client keeps them: the last complete set, keyed by device. */
  markers: {} as Record<string, { lat: number; lng: number }>,
  /** Every complete set received: which keys it held, and where. */
  updates: [] as Record<string, { lat: number; lng: number }>[],
  toasts: [] as AlertEvent[],
  /** Each toast's level as that client shows it (upper-cased on screen). */
  toastLevels: [] as string[],
  reposts: 0,
  repostFailures: 0,
  errors: [] as string[],
};
let socket: Socket | null = null;

const specClient = {
  state,

  /** Login screen: post, then keep the token in its own 1-day `auth-cookie` and check that it exists. */
  async login(username: string, password: string): Promise<boolean> {
    const response = await request<{ token: string }>('POST', '/admin/login', { username, password });
    document.cookie = `auth-cookie=${encodeURIComponent(response.data.token)}; max-age=86400; path=/`;
    return document.cookie.split('; ').some((c) => c.startsWith('auth-cookie='));
  },

  async verify(): Promise<boolean> {
    const response = await request<{ isAuthenticated: boolean }>('GET', '/admin/verify-token');
    return response.data.isAuthenticated;
  },

  async prisoners(): Promise<{ prisoner_id: number; first_name: string }[]> {
    const response = await request<{
      prisoners: { prisoner_id: number; first_name: string }[];
      totalPrisoners: number;
    }>('GET', '/prisoner/all?page=1');
    return response.data.prisoners;
  },

  async staff(role: 'Police' | 'Guard'): Promise<unknown[]> {
    const response = await request<{ staffMembers: unknown[]; totalStaff: number }>(
      'GET',
      `/staff/getbyRole/${role}?page=1`,
    );
    return response.data.staffMembers;
  },

  /** Cell picker: `Block {name}` buttons from `response.data.data`, then that block's cells. */
  async blocks(): Promise<string[]> {
    const response = await request<{ data: unknown[] }>('GET', '/cell_controls/blocks');
    return response.data.data.map((name) => `Block ${String(name)}`);
  },

  async cells(label: string): Promise<{ cell_id: string }[]> {
    const block = label.replace(/^Block /, '');
    const response = await request<{ data: { cell_id: string }[] }>(
      'GET',
      `/cell_controls/block?block=${encodeURIComponent(block)}`,
    );
    return response.data.data;
  },

  /** A polygon drawn on the map is posted with its points as Leaflet gives them: `[{ lat, lng }, ...]`. */
  async addGeofence(fence: {
    geofence_id: string;
    name: string;
    type: string;
    alert_type: string;
    points: { lat: number; lng: number }[];
  }) {
    const points = fence.points.map((p) => L.latLng(p.lat, p.lng));
    const response = await request<unknown>('POST', '/geofence/add', {
      geofence_id: fence.geofence_id,
      shape: 'Polygon',
      type: fence.type,
      alert_type: fence.alert_type,
      name: fence.name,
      coordinates: points.map((p) => ({ lat: p.lat, lng: p.lng })),
    });
    return response.status;
  },

  /** The map draws each geofence; a point that is not `{ lat, lng }` throws "Invalid LatLng object". */
  async geofences(): Promise<{ geofence_id: string; points: { lat: number; lng: number }[] }[]> {
    const response = await request<
      { geofence_id: string; shape: string; coordinates: { lat: number; lng: number }[] | null }[]
    >('GET', '/geofence/all');
    return response.data
      .filter((g) => ['Circle', 'Polygon', 'Rectangle'].includes(g.shape))
      .map((g) => ({
        geofence_id: g.geofence_id,
        points: (g.coordinates ?? []).map((p) => {
          const latLng = L.latLng(p.lat, p.lng);
          return { lat: latLng.lat, lng: latLng.lng };
        }),
      }));
  },

  /**
   * Alerts screen: `response.data.data` is the list, asked without a page; the header counts what came back per
   * stored type (docs/CLIENT-CONTRACT.md: Critical, Warning, Informational).
   */
  async alertCounts(): Promise<{ total: number; Critical: number; Warning: number; Informational: number }> {
    const response = await request<{ data: { alert_type: string }[] }>('GET', '/alert/prisoneralerts');
    const list = response.data.data;
    const of = (type: string) => list.filter((a) => a.alert_type === type).length;
    return { total: list.length, Critical: of('Critical'), Warning: of('Warning'), Informational: of('Informational') };
  },

  /** Alerts screen: `response.data.data` is the list. */
  async alerts(): Promise<
    { alert_type: string; details: string; timestamp: string; first_name: string | null; last_name: string | null }[]
  > {
    const response = await request<{
      data: {
        alert_type: string;
        details: string;
        timestamp: string;
        first_name: string | null;
        last_name: string | null;
      }[];
    }>('GET', '/alert/prisoneralerts');
    return response.data.data;
  },

  /** The realtime connection with the spec's client defaults; it asks for nothing but the events it listens to. */
  connect(): Promise<void> {
    socket = io({ reconnectionDelay: 1000, reconnectionDelayMax: 5000, timeout: 20_000 });
    socket.on('locationUpdate', (set: Record<string, LocationValue>) => {
      const next: Record<string, { lat: number; lng: number }> = {};
      for (const [key, value] of Object.entries(set)) {
        // It keeps a marker only when the value's id is its key, compared as strings.
        if (String(value.id) !== key) continue;
        const latLng = L.latLng(value.latitude, value.longitude);
        next[key] = { lat: latLng.lat, lng: latLng.lng };
      }
      state.markers = next;
      state.updates.push(next);
    });
    socket.on('userDisconnected', (id: string) => {
      delete state.markers[id];
    });
    socket.on('showAlert', (alert: AlertEvent) => {
      state.toasts.push(alert);
      state.toastLevels.push(levelOf(alert.alert_type));
      // "sent for each live alert received" (SPEC 7); a failure is only logged (SPEC 8).
      request('POST', '/alert/all', {
        device_id: alert.index,
        alert_type: alert.alert_type,
        ...localDateTime(),
        details: alert.message,
      }).then(
        () => state.reposts++,
        () => state.repostFailures++,
      );
    });
    return new Promise((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', (error) => reject(error));
    });
  },
};

export type SpecClient = typeof specClient;
declare global {
  interface Window {
    specClient: SpecClient;
  }
}

window.addEventListener('error', (event) => state.errors.push(event.message));
window.specClient = specClient;
