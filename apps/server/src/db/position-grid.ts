// The grid key of a stored fix (decision 068): an integer cell of 1/5000 degree (about 22 m north-south, 15 m
// east-west in Europe) that, with the time, makes "fixes near here at about then" one index range per cell
// (positions_grid_time_idx) on PostgreSQL and PGlite alike; neither has PostGIS.
import { sql } from 'drizzle-orm';
import { METERS_PER_DEGREE } from '@prison/shared';

export const GRID_STEPS_PER_DEGREE = 5000;
/** Room for every longitude cell (360 x 5000) in one row of latitude. */
const LONGITUDE_CELLS = 2_000_000;

/** The index's expression, word for word (the planner matches it as written); p is the positions alias. */
export const GRID_CELL_SQL = sql.raw(
  `(floor(p.latitude * ${GRID_STEPS_PER_DEGREE})::bigint * ${LONGITUDE_CELLS} + floor((p.longitude + 180) * ${GRID_STEPS_PER_DEGREE})::bigint)`,
);

const latitudeCell = (lat: number) => Math.floor(lat * GRID_STEPS_PER_DEGREE);
const longitudeCell = (lng: number) => Math.floor((lng + 180) * GRID_STEPS_PER_DEGREE);

/** The cell of a point, as the index computes it (the same float8 arithmetic). */
export function gridCellOf(lat: number, lng: number): number {
  return latitudeCell(lat) * LONGITUDE_CELLS + longitudeCell(lng);
}

/** Every cell holding a point within radiusM of (lat, lng): the cells of the square around it. */
export function gridCellsAround(lat: number, lng: number, radiusM: number): number[] {
  const dLat = radiusM / METERS_PER_DEGREE;
  const dLng = radiusM / (METERS_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  const cells: number[] = [];
  for (let y = latitudeCell(lat - dLat); y <= latitudeCell(lat + dLat); y++) {
    for (let x = longitudeCell(lng - dLng); x <= longitudeCell(lng + dLng); x++) cells.push(y * LONGITUDE_CELLS + x);
  }
  return cells;
}
