// Local tiles (decision 065): a PMTiles and an MBTiles file, each written here with one tile, served by the
// real app at /api/v1/tiles/{z}/{x}/{y} behind a session; the settings point the browser at them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { Compression, TileType, zxyToTileId } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import { startTestApp } from '../../../test/test-app';
import { parseMapTiles } from '../../lib/map-tiles-setting';

const dir = mkdtempSync(path.join(tmpdir(), 'tiles-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes that read as a PNG (the content type is taken from them). */
const TILE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('one tile at 3/4/2')]);
const [Z, X, Y] = [3, 4, 2];

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

/** A PMTiles v3 archive of one tile: header, a root directory of one entry (no compression), the tile. */
function writePmtiles(file: string) {
  const tileId = zxyToTileId(Z, X, Y);
  // Entries: count, tile ids (delta), run lengths, lengths, offsets (+1).
  const directory = Buffer.from([...varint(1), ...varint(tileId), ...varint(1), ...varint(TILE.length), ...varint(0 + 1)]);
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'latin1');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, 127); // root directory offset
  u64(16, directory.length);
  u64(24, 127 + directory.length); // metadata offset (empty)
  u64(32, 0);
  u64(40, 127 + directory.length); // leaf directories (none)
  u64(48, 0);
  u64(56, 127 + directory.length); // tile data
  u64(64, TILE.length);
  u64(72, 1);
  u64(80, 1);
  u64(88, 1);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(Compression.None, 97);
  header.writeUInt8(Compression.None, 98);
  header.writeUInt8(TileType.Png, 99);
  header.writeUInt8(0, 100);
  header.writeUInt8(5, 101);
  writeFileSync(file, Buffer.concat([header, directory, TILE]));
}

function writeMbtiles(file: string) {
  const db = new sqlite.Database(file);
  db.exec('CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);');
  db.run('INSERT INTO metadata VALUES (?, ?)', ['format', 'png']);
  // MBTiles rows count from the south.
  db.run('INSERT INTO tiles VALUES (?, ?, ?, ?)', [Z, X, 2 ** Z - 1 - Y, TILE]);
  db.close();
}

describe.each(['pmtiles', 'mbtiles'] as const)('local %s tiles', (format) => {
  it('serves the tile with its content type behind a session, 404 elsewhere, and the settings point at it', async () => {
    const file = path.join(dir, `site.${format}`);
    if (format === 'pmtiles') writePmtiles(file);
    else writeMbtiles(file);
    const tiles = parseMapTiles(file);
    if (typeof tiles === 'string') throw new Error(tiles);
    const ctx = await startTestApp('pglite', { MAP_TILES: tiles });
    try {
      const res = await ctx.api('GET', `/tiles/${Z}/${X}/${Y}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(TILE)).toBe(true);
      expect((await ctx.api('GET', `/tiles/${Z}/${X}/${Y + 1}`)).statusCode).toBe(404);
      expect((await ctx.api('GET', `/tiles/3/8/0`)).statusCode).toBe(400);
      expect((await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/tiles/${Z}/${X}/${Y}` })).statusCode).toBe(401);
      expect((await ctx.api('GET', '/settings')).json().mapTileUrl).toBe(`${API_PREFIX}/tiles/{z}/{x}/{y}`);
      // Images from this server only: no other origin in the policy.
      expect(String(res.headers['content-security-policy'])).toMatch(/img-src 'self' data: blob:;/);
    } finally {
      await ctx.app.close();
      await ctx.database.close();
    }
  }, 60_000);
});

describe('MAP_TILES=off', () => {
  it('gives the browser no tile URL, answers 404 for tiles and allows no other image origin', async () => {
    const ctx = await startTestApp('pglite', { MAP_TILES: { kind: 'off' } });
    try {
      const settings = await ctx.api('GET', '/settings');
      expect(settings.json().mapTileUrl).toBeNull();
      expect((await ctx.api('GET', '/tiles/0/0/0')).statusCode).toBe(404);
      expect(String(settings.headers['content-security-policy'])).toMatch(/img-src 'self' data: blob:;/);
    } finally {
      await ctx.app.close();
      await ctx.database.close();
    }
  }, 60_000);

  it('reads the setting: off, a file by its extension, a URL template; anything else is a problem', () => {
    expect(parseMapTiles('OFF')).toEqual({ kind: 'off' });
    expect(parseMapTiles('/srv/tiles/site.mbtiles')).toEqual({ kind: 'file', path: '/srv/tiles/site.mbtiles', format: 'mbtiles' });
    expect(parseMapTiles('https://tiles.example/{z}/{x}/{y}.png')).toEqual({ kind: 'url', template: 'https://tiles.example/{z}/{x}/{y}.png' });
    for (const bad of ['https://tiles.example/{z}.png', '/srv/tiles/site.zip', 'on']) expect(typeof parseMapTiles(bad)).toBe('string');
  });
});
