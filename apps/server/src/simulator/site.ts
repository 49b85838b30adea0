// A fictional prison laid out around a centre point: a perimeter wall, two restricted zones, an exercise yard and
// the open ground between the cell blocks where prisoners walk. Distances are metres east (x) and north (y).
import type { GeofenceInput } from '@prison/shared';

export type Point = [x: number, y: number];
export type LatLng = [lat: number, lng: number];

const METRES_PER_DEGREE = 111_320;

export class PrisonSite {
  /** The wall: leaving it is a Critical breach. */
  readonly perimeter: Point[] = [
    [-220, -160],
    [0, -185],
    [220, -160],
    [245, 0],
    [220, 160],
    [0, 185],
    [-220, 160],
    [-245, 0],
  ];
  readonly workshop = { from: [100, 60] as Point, to: [180, 130] as Point };
  readonly armoury = { centre: [-150, 100] as Point, radius: 30 };
  readonly yard = { centre: [0, -90] as Point, radius: 55 };
  /** Block A's building: its prisoners are to be inside from 19:00 to 07:00 (a curfew zone, decision 034). */
  readonly blockA = { from: [-200, -60] as Point, to: [-110, 60] as Point };
  /** The other blocks' buildings, in order (B, C, D): inside the wall, clear of the zones above. */
  readonly otherBlocks: { from: Point; to: Point }[] = [
    { from: [110, -140], to: [200, -50] },
    { from: [110, -40], to: [200, 50] },
    { from: [-200, -150], to: [-110, -70] },
  ];
  /**
   * The cell blocks' corridors, indoors where a phone's GPS does not reach: fixed readers along each, and
   * the prisoners tracked by tag walk them.
   */
  readonly corridors: { block: string; from: Point; to: Point }[] = [
    { block: 'A', from: [-155, -50], to: [-155, 50] },
    { block: 'B', from: [120, -60], to: [200, -60] },
  ];
  /** Where prisoners wander between breaches: inside the wall, clear of every zone. */
  readonly ground = { from: [-100, 0] as Point, to: [70, 140] as Point };

  constructor(
    readonly centreLat: number,
    readonly centreLng: number,
  ) {}

  toLatLng([x, y]: Point): LatLng {
    const lat = this.centreLat + y / METRES_PER_DEGREE;
    const lng = this.centreLng + x / (METRES_PER_DEGREE * Math.cos((this.centreLat * Math.PI) / 180));
    return [lat, lng];
  }

  /** Readers every 25 m along each corridor (ids fixed, so a second start finds them). */
  readerPoints(): { id: string; name: string; block: string; at: Point }[] {
    return this.corridors.flatMap(({ block, from, to }) => {
      const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
      const count = Math.floor(length / 25) + 1;
      return Array.from({ length: count }, (_, i) => {
        const t = count === 1 ? 0 : i / (count - 1);
        return { id: `demo-reader-${block.toLowerCase()}${i + 1}`, name: `Block ${block} corridor ${i + 1}`, block, at: [from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1])] as Point };
      });
    });
  }

  /**
   * The demo geofences (ids are fixed so a second start finds them). The Workshop is allowed on weekdays 09:00-17:00
   * (restricted outside those hours); with a block A in `blocks`, a night curfew for its prisoners.
   */
  geofences(blocks: readonly string[] = []): GeofenceInput[] {
    const { from, to } = this.workshop;
    const rectangle: Point[] = [from, [to[0], from[1]], to, [from[0], to[1]]];
    const common = { dwell_seconds: 0, buffer_meters: 0, applies_to: null, schedule: null };
    const [armouryLat, armouryLng] = this.toLatLng(this.armoury.centre);
    const [yardLat, yardLng] = this.toLatLng(this.yard.centre);
    return [
      { ...common, geofence_id: 'demo-perimeter', shape: 'Polygon', name: 'Perimeter', type: 'Negative', alert_type: 'Critical', buffer_meters: 5, coordinates: this.perimeter.map((p) => this.toLatLng(p)) },
      {
        ...common,
        geofence_id: 'demo-workshop',
        shape: 'Rectangle',
        name: 'Workshop',
        type: 'Positive',
        alert_type: 'Warning',
        coordinates: rectangle.map((p) => this.toLatLng(p)),
        // Allowed Mon-Fri 09:00-17:00: restricted from 17:00 to 09:00 on weekdays and all weekend.
        schedule: [
          { days: [1, 2, 3, 4, 5], start: '17:00', end: '09:00' },
          { days: [6, 7], start: '09:00', end: '09:00' },
        ],
      },
      { ...common, geofence_id: 'demo-armoury', shape: 'Circle', name: 'Armoury', type: 'Positive', alert_type: 'Warning', radius: this.armoury.radius, center_lat: armouryLat, center_lng: armouryLng },
      { ...common, geofence_id: 'demo-yard', shape: 'Circle', name: 'Exercise Yard', type: 'Positive', alert_type: 'Informational', dwell_seconds: 10, radius: this.yard.radius, center_lat: yardLat, center_lng: yardLng },
      ...(blocks.includes('A') ? [this.curfew()] : []),
    ];
  }

  /** Each block's area (block A's building first, then the others in name order) as `{ lat, lng }` rings. */
  blockAreas(blocks: readonly string[]): { block: string; points: { lat: number; lng: number }[] }[] {
    const others = [...blocks].filter((block) => block !== 'A').sort();
    const placed = [
      ...(blocks.includes('A') ? [{ block: 'A', ...this.blockA }] : []),
      ...others.slice(0, this.otherBlocks.length).map((block, i) => ({ block, ...this.otherBlocks[i]! })),
    ];
    return placed.map(({ block, from, to }) => {
      const corners: Point[] = [from, [to[0], from[1]], to, [from[0], to[1]]];
      return { block, points: corners.map((p) => this.toLatLng(p)).map(([lat, lng]) => ({ lat, lng })) };
    });
  }

  private curfew(): GeofenceInput {
    const { from, to } = this.blockA;
    const corners: Point[] = [from, [to[0], from[1]], to, [from[0], to[1]]];
    return {
      geofence_id: 'demo-curfew-a',
      shape: 'Rectangle',
      name: 'Block A curfew',
      type: 'Negative',
      alert_type: 'Informational',
      dwell_seconds: 60,
      buffer_meters: 5,
      coordinates: corners.map((p) => this.toLatLng(p)),
      applies_to: { blocks: ['A'] },
      schedule: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '19:00', end: '07:00' }],
    };
  }
}
