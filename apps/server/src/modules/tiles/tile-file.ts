// A local tile file read by the server (decision 065), so a closed network still has a background map:
// PMTiles through the pmtiles library over a file Source, MBTiles through node-sqlite3-wasm (read-only; SQLite
// compiled to WebAssembly, reading the file page by page: nothing to compile at install, decision 086). Raster only:
// Leaflet's tile layer draws images.
import { open, type FileHandle } from 'node:fs/promises';
// A CommonJS module whose exports Node's ESM loader cannot name: taken from its default export.
import sqlite from 'node-sqlite3-wasm';
import { PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';

export interface Tile {
  data: Buffer;
  contentType: string;
}

export interface TileFile {
  tile(z: number, x: number, y: number): Promise<Tile | null>;
  close(): Promise<void>;
}

/** The image type of a tile, from its first bytes. */
export function tileContentType(data: Buffer): string | null {
  if (data[0] === 0x89 && data.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** pmtiles reads byte ranges; this one reads them from a file. */
class DiskSource implements Source {
  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}
  getKey() {
    return this.path;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, offset);
    const data = buffer.subarray(0, bytesRead);
    return { data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer };
  }
}

const RASTER = new Set([TileType.Png, TileType.Jpeg, TileType.Webp]);

async function openPmtiles(path: string): Promise<TileFile> {
  const handle = await open(path, 'r');
  try {
    const archive = new PMTiles(new DiskSource(handle, path));
    const header = await archive.getHeader();
    if (!RASTER.has(header.tileType)) throw new Error(`MAP_TILES: ${path} holds vector tiles; the map draws raster tiles (PNG, JPEG, WebP)`);
    return {
      async tile(z, x, y) {
        const found = await archive.getZxy(z, x, y);
        if (!found) return null;
        const data = Buffer.from(found.data);
        const contentType = tileContentType(data);
        return contentType ? { data, contentType } : null;
      },
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function openMbtiles(path: string): TileFile {
  const db = new sqlite.Database(path, { readOnly: true, fileMustExist: true });
  const select = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
  return {
    async tile(z, x, y) {
      // MBTiles rows count from the south (TMS); the map's y counts from the north.
      const stored = select.get([z, x, 2 ** z - 1 - y])?.tile_data;
      if (!(stored instanceof Uint8Array)) return null;
      // The library copies a blob out of SQLite's memory already (a fresh Uint8Array): wrapped, not copied again.
      const data = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
      const contentType = tileContentType(data);
      return contentType ? { data, contentType } : null;
    },
    close: async () => {
      select.finalize();
      db.close();
    },
  };
}

export async function openTileFile(path: string, format: 'pmtiles' | 'mbtiles'): Promise<TileFile> {
  return format === 'pmtiles' ? openPmtiles(path) : openMbtiles(path);
}
