// The part of the geofence engine (tracking/geofence-engine.ts, decorated as `app.geofenceEngine`) the tracking
// services use. Read through this accessor so the services run (without geofence alerts) when no engine is loaded.
import type { FastifyInstance } from 'fastify';
import type { AlertType, GeofenceType, StoredGeofence } from '@prison/shared';
import type { PortableDevice, SavedDevice, Wearer } from './geofence-engine';

export interface EngineGeofence {
  geofence_id: string;
  name: string;
  type: GeofenceType;
  alert_type: AlertType;
}

export interface EngineTransitionLike {
  geofence: EngineGeofence;
  kind: 'start' | 'end';
  at: Date;
}

export interface GeofenceEngineLike {
  /** `wearer`: the device's prisoner and cell block, which decide the geofences that apply (decision 033). */
  evaluate(deviceId: string, lat: number, lng: number, at: Date, wearer?: Wearer, accuracy?: number): EngineTransitionLike[];
  /** The geofences a point is strictly inside, whatever their scope or schedule (fix rules, decision 064). */
  containing?(lat: number, lng: number): StoredGeofence[];
  tick(now: Date): { deviceId: string; transitions: EngineTransitionLike[] }[];
  forgetDevice(deviceId: string): void;
  /** Opaque copy of one device's state, and putting it back (after fixes that were evaluated but not stored). */
  saveDevice(deviceId: string): SavedDevice;
  restoreDevice(deviceId: string, saved: SavedDevice): void;
  /** Cluster mode (decision 036): one device's state in a form another process takes over, and taking it over. */
  exportDevice(deviceId: string): PortableDevice | null;
  importDevice(deviceId: string, portable: PortableDevice | null): void;
  /** Escorts (decision 035): a prisoner's Negative violations wait while this answers true. */
  setNegativeSuppression(predicate: ((prisonerId: number, t: number) => boolean) | null): void;
  /** Authorised zones (decision 099): a prisoner's violation of a geofence waits while this answers true. */
  setZoneExemption?(predicate: ((prisonerId: number, geofenceId: string, t: number) => boolean) | null): void;
}

export function engineOf(app: FastifyInstance): GeofenceEngineLike | null {
  const engine = (app as unknown as { geofenceEngine?: GeofenceEngineLike }).geofenceEngine;
  return engine && typeof engine.evaluate === 'function' ? engine : null;
}

/** "John Doe left Perimeter" (Negative) or "John Doe entered Workshop" (Positive). */
export function geofenceAlertMessage(name: string, geofence: EngineGeofence): string {
  return geofence.type === 'Negative' ? `${name} left ${geofence.name}` : `${name} entered ${geofence.name}`;
}
