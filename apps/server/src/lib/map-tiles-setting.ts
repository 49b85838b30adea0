// MAP_TILES (decision 065): what the map draws under the site plan. `off`, a local tile file the server
// serves (PMTiles or MBTiles, chosen by its extension), or a tile URL template of another server.

export type MapTiles =
  | { kind: 'off' }
  | { kind: 'file'; path: string; format: 'pmtiles' | 'mbtiles' }
  | { kind: 'url'; template: string };

export const DEFAULT_MAP_TILES: MapTiles = { kind: 'url', template: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' };

const URL_PROBLEM = 'must be off, a .pmtiles or .mbtiles file, or a tile URL template holding {z}, {x} and {y}, like https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** The setting, or the problem with it. */
export function parseMapTiles(value: string): MapTiles | string {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'off') return { kind: 'off' };
  if (/^https?:\/\//i.test(trimmed)) {
    if (!['{z}', '{x}', '{y}'].every((part) => trimmed.includes(part))) return URL_PROBLEM;
    try {
      new URL(trimmed.replace(/\{[a-z]\}/g, 'a'));
    } catch {
      return URL_PROBLEM;
    }
    return { kind: 'url', template: trimmed };
  }
  const format = /\.pmtiles$/i.test(trimmed) ? 'pmtiles' : /\.mbtiles$/i.test(trimmed) ? 'mbtiles' : null;
  if (!format) return URL_PROBLEM;
  return { kind: 'file', path: trimmed, format };
}
