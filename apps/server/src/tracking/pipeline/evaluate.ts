// Evaluate: turns what a fix or a tick did (engine transitions, escort and keep-apart events, battery, alarms) into
// alert drafts and geofence events, in memory. Nothing here writes; persist.ts stores what this drafts.
import type { NewAlert, AlertWearer } from '../ports';
import { displayName, type TrackedDevice } from '../device-registry';
import { geofenceAlertMessage, type EngineTransitionLike, type GeofenceEngineLike } from '../engine-access';
import { escortAlertMessage, type EscortEvent } from '../escort-monitor';
import { keepApartAlertMessage, type KeepApartMeeting } from '../keep-apart-monitor';
import type { Fix } from '../fix';
import type { TrackingContext } from './context';

/** Cluster mode: the row whose flag decides which process raises an alert about two trackers (decision 036). */
export type PairClaim = { keepApartPair: number } | { escort: number };

/** An alert to store, with the name and cell its live toast shows. */
export interface AlertDraft {
  alert: NewAlert;
  wearer: AlertWearer;
  claim?: PairClaim;
}

/** Geofence state changes, applied in order after the alerts of the same transaction are stored. */
export type GeofenceEvent = { kind: 'start'; deviceId: string; geofenceId: string; at: Date; draft: number } | { kind: 'end'; deviceId: string; geofenceId: string; at: Date };

/** What planning a fix found, in the order it happened: each becomes alert drafts (and geofence events) here. */
export type Finding =
  | { kind: 'battery'; device: TrackedDevice; battery: number; at: Date }
  | { kind: 'escort'; events: EscortEvent[] }
  | { kind: 'geofence'; device: TrackedDevice; transitions: EngineTransitionLike[] }
  | { kind: 'keep-apart'; device: TrackedDevice; meetings: KeepApartMeeting[]; at: Date };

/** What a batch's evaluation fills: the alerts to store, the geofence state changes, the escorts together again. */
export interface Evaluated {
  findings: readonly Finding[];
  drafts: AlertDraft[];
  events: GeofenceEvent[];
  rejoined: EscortEvent[];
}

/** A planned batch's findings become its alert drafts and geofence events, in the order they were found. */
export function evaluateBatch(ctx: TrackingContext, batch: Evaluated): void {
  const { drafts, events, rejoined } = batch;
  for (const finding of batch.findings) {
    if (finding.kind === 'battery') {
      const { device, battery, at } = finding;
      drafts.push(draftAlert(device, 'Warning', 'battery', `${displayName(device)}'s tracker battery is low (${Math.round(battery)} %)`, at));
    } else if (finding.kind === 'escort') {
      collectEscortEvents(ctx, finding.events, drafts, rejoined);
    } else if (finding.kind === 'geofence') {
      collectTransitions(finding.device, finding.transitions, drafts, events, ctx.options.zoneEntriesNeedAction);
    } else {
      const { device, at } = finding;
      for (const meeting of finding.meetings) drafts.push({ ...draftAlert(device, 'Warning', 'keep_apart', keepApartAlertMessage(meeting), at), claim: { keepApartPair: meeting.pairId } });
    }
  }
}

/** How a keep-apart alert names a prisoner: names are not unique, the id is. */
export const keepApartName = (device: TrackedDevice) => `${displayName(device)} (#${device.prisonerId})`;

export function draftAlert(device: TrackedDevice, alertType: NewAlert['alertType'], kind: NewAlert['kind'], details: string, at: Date, geofenceId?: string): AlertDraft {
  return {
    alert: { alertType, kind, details, at, deviceId: device.id, prisonerId: device.prisonerId, geofenceId: geofenceId ?? null },
    wearer: { prisonerName: device.prisonerName, prisonNumber: device.prisonNumber, cellId: device.cellId, block: device.block },
  };
}

/** Silence is an alarm: the Warning of a device gone offline. */
export const offlineDraft = (device: TrackedDevice, now: Date): AlertDraft => draftAlert(device, 'Warning', 'offline', `${displayName(device)}'s tracker is offline`, now);

export function logEngineFailure(ctx: TrackingContext, error: unknown): void {
  ctx.engineFailures.error('geofence engine failed; fixes are stored without geofence checks', { err: error });
}

/** A failing engine must not cost the fix: it is stored and shown, only its geofence check is lost (and logged). */
export function evaluateFix(ctx: TrackingContext, engine: GeofenceEngineLike, device: TrackedDevice, fix: Fix, at: Date): EngineTransitionLike[] {
  try {
    return engine.evaluate(device.id, fix.latitude, fix.longitude, at, { prisonerId: device.prisonerId, block: device.block }, fix.accuracy ?? 0);
  } catch (error) {
    logEngineFailure(ctx, error);
    return [];
  }
}

/** The engine's timers (dwell, schedule windows) at `now`; a failing engine loses only this tick (and is logged). */
export function tickEngine(ctx: TrackingContext, now: Date): ReturnType<GeofenceEngineLike['tick']> {
  try {
    return ctx.options.engine()?.tick(now) ?? [];
  } catch (error) {
    logEngineFailure(ctx, error);
    return [];
  }
}

/** An unescorted prisoner: a Critical alert on their tracker; back together: the open one ends. */
export function collectEscortEvents(ctx: TrackingContext, happened: EscortEvent[], drafts: AlertDraft[], rejoined: EscortEvent[]): void {
  for (const event of happened) {
    if (event.kind === 'rejoined') {
      rejoined.push(event);
      continue;
    }
    const device = ctx.registry.get(event.prisoner.deviceId);
    if (device) drafts.push({ ...draftAlert(device, 'Critical', 'unescorted', escortAlertMessage(event), event.at), claim: { escort: event.escortId } });
  }
}

/**
 * A transition's start becomes a geofence alert draft; `zoneEntriesNeedAction` (ZONE_ENTRIES_NEED_ACTION) makes an
 * Informational one work rather than an event (the alert store's default).
 */
export function collectTransitions(
  device: TrackedDevice,
  transitions: EngineTransitionLike[],
  drafts: AlertDraft[],
  events: GeofenceEvent[],
  zoneEntriesNeedAction = false,
): void {
  for (const t of transitions) {
    const geofenceId = t.geofence.geofence_id;
    if (t.kind === 'end') {
      events.push({ kind: 'end', deviceId: device.id, geofenceId, at: t.at });
      continue;
    }
    const draft = draftAlert(device, t.geofence.alert_type, 'geofence', geofenceAlertMessage(displayName(device), t.geofence), t.at, geofenceId);
    if (zoneEntriesNeedAction) draft.alert.needsAction = true;
    drafts.push(draft);
    events.push({ kind: 'start', deviceId: device.id, geofenceId, at: t.at, draft: drafts.length - 1 });
  }
}
