// Socket.IO event maps between server, browsers and devices (docs/CLIENT-CONTRACT.md).
import { z } from 'zod';
import type { AlertStatusChange } from './alert-workflow';
import { ALERT_LEVELS } from './constants';
import type { PostedMessage } from './message';
import type { SessionEnded } from './session-end';
import type { CountDueEvent } from './roll-count';

/**
 * A tracked prisoner as the live map shows it (docs/CLIENT-CONTRACT.md, "Tracked prisoner location"). `id` is the key it is
 * sent under, the tracking id: the spec's client compares the two as strings and drops a marker whose `id` differs.
 */
export const trackedLocation = z.object({
  id: z.string(),
  /** The wearer's prisoner number; null for a tracker assigned to nobody. */
  prisonerId: z.number().int().nullable(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  trackingId: z.string(),
  /** ISO instant of the fix. */
  at: z.string().optional(),
  /** The wearer's cell (null: none), shown beside the name because names are not unique. Extra: the spec's client ignores it. */
  cellId: z.string().nullable().optional(),
  /** A staff member's tracker (police officer or guard, decision 035): their number; absent for everyone else.
   * Shown with its own marker, never counted as a prisoner. Extra: the spec's client ignores it. */
  staffId: z.number().int().optional(),
});
export type TrackedLocation = z.infer<typeof trackedLocation>;

/** Keyed by tracking device id: the complete set of online tracked prisoners (a key missing is a marker gone). */
export type LocationSnapshot = Record<string, TrackedLocation>;

/**
 * What a browser puts in its handshake `auth` to receive batched `locationChanges` (our web app). A browser that asks
 * for nothing (the spec's client) receives the complete set as `locationUpdate` instead, at most once a second while
 * anything changed (docs/CLIENT-CONTRACT.md, docs/decisions/018).
 */
export interface BrowserHandshakeAuth {
  deltas?: boolean;
  /** A bearer token, for clients that cannot send the session cookie. */
  token?: string;
}

/** Changes since the last batch: moved or appeared devices, and devices gone. */
export interface LocationChanges {
  changed: LocationSnapshot;
  gone: string[];
}

export const showAlertEvent = z.object({
  index: z.string(),
  /** Lowercase (docs/CLIENT-CONTRACT.md): `critical`, not the stored `Critical`; `alertTypeOfLevel` turns it back. */
  alert_type: z.enum(ALERT_LEVELS),
  message: z.string(),
  alertId: z.number().int().optional(),
  prisonerName: z.string().optional(),
  /** The wearer's prisoner number and cell (null: none), so two prisoners of one name are told apart. Extras the
   * spec's client ignores; both absent when the alert's device is assigned to nobody. */
  prisonerId: z.number().int().optional(),
  cellId: z.string().nullable().optional(),
  /** His prison number (decision 101), shown instead of the id; another extra the spec's client ignores. */
  prisonNumber: z.string().optional(),
  timestamp: z.string().optional(),
  /** False for an event rather than work (an Informational zone alert): no toast; absent means work. An extra. */
  needsAction: z.boolean().optional(),
});
export type ShowAlertEvent = z.infer<typeof showAlertEvent>;

/** The phone app's event (docs/CLIENT-CONTRACT.md): one fix. */
export const updateLocationEvent = z.object({
  trackingId: z.string().min(1, 'trackingId is required'),
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().optional(),
  timestamp: z.union([z.number(), z.string()]).optional(),
  accuracy: z.number().optional(),
  battery: z.number().optional(),
});
export type UpdateLocationEvent = z.infer<typeof updateLocationEvent>;

/** Whether the server can reach its database; sent on connect and whenever it changes (browsers show a banner). */
export interface ServiceStatusEvent {
  database: 'ok' | 'unavailable';
}

/**
 * Cluster mode (decision 036): whether live events from the other server processes reach this browser. Sent on
 * connect when interrupted and whenever it changes; on 'ok' after 'interrupted' the browser refetches what it missed.
 */
export interface ClusterFeedEvent {
  otherProcesses: 'ok' | 'interrupted';
}

/** The `data` of a refused browser handshake when the session could not be checked because the database is down. */
export interface ServiceUnavailableData {
  database: 'unavailable';
}

export interface ServerToClientEvents {
  /** The complete set: on connect and on `requestSnapshot` to every browser; repeated to browsers without deltas. */
  locationUpdate: (snapshot: LocationSnapshot) => void;
  /** Only to browsers that asked for deltas, up to 4 times a second. */
  locationChanges: (changes: LocationChanges) => void;
  userDisconnected: (trackingId: string) => void;
  showAlert: (alert: ShowAlertEvent) => void;
  /** Tells every browser that some data changed, so open lists refetch. */
  dataChanged: (topic: string) => void;
  /** Alerts acknowledged or resolved anywhere (decision 040): a toast still showing one of them goes away. */
  alertStatusChanged: (change: AlertStatusChange) => void;
  /** This browser's session ended (idle, expired, logged out, revoked, password changed, disabled): the socket is
   * disconnected right after. */
  sessionEnded: (ended: SessionEnded) => void;
  /** A new entry of the control-room log (/communication). */
  messagePosted: (message: PostedMessage) => void;
  serviceStatus: (status: ServiceStatusEvent) => void;
  clusterFeed: (status: ClusterFeedEvent) => void;
  /** An event this browser sent was refused to its role (decision 050): nothing was done. */
  accessRefused: (refusal: AccessRefusedEvent) => void;
  /** A scheduled roll count is due: to the block's officers. */
  countDue: (due: CountDueEvent) => void;
}

/** Which event a role may not send, and the 403 message naming the role and the action. */
export interface AccessRefusedEvent {
  event: string;
  message: string;
}

export interface ClientToServerEvents {
  updateLocation: (fix: UpdateLocationEvent, ack?: (result: { ok: boolean; message?: string }) => void) => void;
  requestSnapshot: () => void;
}
