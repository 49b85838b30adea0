// One tracked marker: what it shows (name, detail, level, label, shape) and its glide from where it is drawn to its
// latest fix (docs/CLIENT-CONTRACT.md: a new position is reached over GLIDE_MS), in degrees and in world pixels at the
// layer's projection zoom, so that placing it in a frame is arithmetic only.
import { GLIDE_MS } from './marker-pixels-protocol';
import type { MarkerLevel } from './marker-style';
import type { SceneMarker } from './pixel-scene-sync';

export interface MarkerPosition {
  name: string;
  /** Shown under the name in the popup, e.g. "#12 · cell B-4": names are not unique; unchanged when absent. */
  detail?: string;
  latitude: number;
  longitude: number;
  /** The colour (marker-style.ts); unchanged when absent, 'none' for a new marker. */
  level?: MarkerLevel;
  /** Drawn beside the marker from LABEL_MIN_ZOOM on, e.g. "JW B-4". */
  label?: string;
  /** 'staff': a police officer's or guard's tracker, drawn as a diamond (decision 035); a prisoner's is a dot. */
  shape?: MarkerShape;
}

export type MarkerShape = 'dot' | 'staff';

/** A marker as the layer keeps it; `slot` and `queued` belong to the pixel worker's scene (pixel-scene-sync.ts). */
export interface Marker extends SceneMarker {
  shape: MarkerShape;
  name: string;
  detail: string;
  level: MarkerLevel;
  label: string;
  fromLat: number;
  fromLng: number;
  toLat: number;
  toLng: number;
}

/** A marker placed at once where its first fix is (its glide already over). */
export function newMarker(position: MarkerPosition, now: number): Marker {
  const { latitude: lat, longitude: lng } = position;
  return {
    shape: position.shape ?? 'dot',
    name: position.name,
    detail: position.detail ?? '',
    level: position.level ?? 'none',
    label: position.label ?? '',
    fromLat: lat,
    fromLng: lng,
    toLat: lat,
    toLng: lng,
    fromX: 0,
    fromY: 0,
    toX: 0,
    toY: 0,
    glideStart: now - GLIDE_MS,
    slot: -1,
    queued: false,
  };
}

/** How far along its glide a marker is, 0 to 1. */
export function glideProgress(marker: Marker, now: number): number {
  const t = (now - marker.glideStart) / GLIDE_MS;
  return t >= 1 ? 1 : t <= 0 ? 0 : t;
}

/** Whether the marker is still on its way to its latest fix. */
export function isGliding(marker: Marker, now: number): boolean {
  return now - marker.glideStart < GLIDE_MS;
}

/** Where the marker is drawn at `now` (mid-glide included), in degrees. */
export function glidedLatLng(marker: Marker, now: number): [number, number] {
  const t = glideProgress(marker, now);
  return [marker.fromLat + (marker.toLat - marker.fromLat) * t, marker.fromLng + (marker.toLng - marker.fromLng) * t];
}

/**
 * A new fix: the glide starts over from where the marker is drawn now. `to` is the fix in world pixels (null while
 * the layer is not on a map: the marker is projected when it is added).
 */
export function glideTo(marker: Marker, latitude: number, longitude: number, to: { x: number; y: number } | null, now: number): void {
  const t = glideProgress(marker, now);
  marker.fromLat += (marker.toLat - marker.fromLat) * t;
  marker.fromLng += (marker.toLng - marker.fromLng) * t;
  marker.fromX += (marker.toX - marker.fromX) * t;
  marker.fromY += (marker.toY - marker.fromY) * t;
  marker.toLat = latitude;
  marker.toLng = longitude;
  if (to) {
    marker.toX = to.x;
    marker.toY = to.y;
  }
  marker.glideStart = now;
}
