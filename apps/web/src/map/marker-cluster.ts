// Markers drawn on top of each other: which a click among them lists, worst alert first
// (marker-cluster-list.ts shows the list).
import { MARKER_LEVELS, type MarkerLevel } from './marker-style';

export interface DrawnMarker {
  id: string;
  x: number;
  y: number;
  level: MarkerLevel;
  name: string;
}

/** Markers whose drawn centres lie within `radius` pixels of the point, worst level first, then nearest. */
export function clusterAt(markers: readonly DrawnMarker[], x: number, y: number, radius: number): DrawnMarker[] {
  const rank = (level: MarkerLevel) => MARKER_LEVELS.indexOf(level);
  const distance = (m: DrawnMarker) => (m.x - x) ** 2 + (m.y - y) ** 2;
  return markers
    .filter((m) => distance(m) <= radius * radius)
    .sort((a, b) => rank(a.level) - rank(b.level) || distance(a) - distance(b) || a.name.localeCompare(b.name));
}
