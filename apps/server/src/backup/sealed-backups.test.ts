// Sealed backups (decision 094), on each engine: a backup's bytes give no prisoner's name away; a changed byte, a
// cut-off end, a table changed and re-checksummed (as the older unsealed format, or forged under a made-up key with
// the real header) and a file sealed with another key are refused before anything is written, the target unchanged
// (no migrated, empty schema left behind); a restore that fails after the check rolls back, a forced one keeps the old
// database; backup and restore each write an audit entry; an older unsealed backup is restored only when asked.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Transform } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPglite, fromPglite, fromPostgres, type Database } from '../db/client';
import { admins, auditLog, prisoners } from '../db/schema';
import { createScratchDatabase, createTestDatabase, describeEachEngine, type Engine } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';
import { TableChecksum } from './backup-file';
import { openStream, sealStream, SEAL_HEADER_BYTES } from './backup-seal';
import { backupToFile } from './backup-to-file';
import { RestoreRefused, restoreBackup } from './restore-backup';
import { pgliteDirOf, type RestoreTargetSpec } from './restore-target';
import { pgliteConnection, postgresConnection, postgresConnectionOver, type SqlConnection } from './sql-connection';
import { listTables, quoteIdent } from './table-catalog';

const NAME = { first: 'Zebediah', last: 'Quillfeather-Ostrander' };
const key = randomBytes(32);
const who = { adminId: null, actor: 'sealed-backups-test' };

/** Runs bytes through a Transform and collects what comes out (the stream's error rejects). */
function through(transform: Transform, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    transform.on('data', (chunk: Buffer) => chunks.push(chunk));
    transform.on('end', () => resolve(Buffer.concat(chunks)));
    transform.on('error', reject);
    transform.end(bytes);
  });
}

/** The plain lines inside a sealed file, opened with the key as only its holder can. */
async function plainLines(file: string): Promise<string[]> {
  return gunzipSync(await through(openStream(key), readFileSync(file))).toString('utf8').split('\n');
}

/** Each table's count and checksum, and the end mark's totals, made to fit the rows again (what an editor would do). */
function rechecksum(lines: string[]): string[] {
  let checksum = new TableChecksum();
  let tables = 0;
  let rows = 0;
  return lines.map((line) => {
    if (line.startsWith('T\t')) checksum = new TableChecksum();
    if (line.startsWith('R\t')) checksum.add(line.slice(2));
    if (line.startsWith('E\t')) {
      const end = JSON.parse(line.slice(2));
      tables += 1;
      rows += checksum.rows;
      return `E\t${JSON.stringify({ ...end, rows: checksum.rows, sha256: checksum.digest() })}`;
    }
    if (line.startsWith('Z\t')) return `Z\t${JSON.stringify({ tables, rows })}`;
    return line;
  });
}

const sealed = async (lines: string[], withKey: Buffer) => through(sealStream(withKey), gzipSync(lines.join('\n')));

describeEachEngine('sealed backups', (engine: Engine) => {
  let dir: string;
  let source: Database;
  let connection: SqlConnection;
  let file: string;
  let sourceScratch: { url: string; drop(): Promise<void> } | undefined;
  const drops: (() => Promise<void>)[] = [];
  let targets = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'prison-sealed-test-'));
    if (engine === 'pglite') {
      source = await createTestDatabase('pglite');
      connection = pgliteConnection(source.pglite!);
    } else {
      const scratch = await createScratchDatabase('prison_seal_src');
      sourceScratch = scratch;
      source = fromPostgres(scratch.url, 2);
      connection = await postgresConnection(scratch.url);
    }
    await source.db.insert(prisoners).values({ firstName: NAME.first, lastName: NAME.last, status: 'Incarcerated', medicalHistory: 'Type 1 diabetes' });
    await source.db.insert(admins).values({ username: 'officer-a', name: 'Wing Officer A', passwordHash: '$argon2id$not-a-real-hash', role: 'officer', blocks: ['A'] });
    file = path.join(dir, 'prison.backup');
    await backupToFile({ kind: 'connection', connection }, file, { key, who });
  }, 120_000);
  afterAll(async () => {
    for (const drop of drops) await drop();
    await connection.close();
    await source.close();
    await sourceScratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh restore target: an empty data directory, or a database nobody created anything in. */
  async function freshTarget(): Promise<RestoreTargetSpec> {
    if (engine === 'pglite') return { kind: 'pglite', dataDir: path.join(dir, `target-${++targets}`) };
    const scratch = await createScratchDatabase('prison_seal_dst', { migrated: false });
    drops.push(() => scratch.drop());
    return { kind: 'postgres', url: scratch.url };
  }

  /**
   * What a target holds: on PostgreSQL every relation, type, extension and schema, and each table's rows; on PGlite
   * every file of the data directory with its size and time (opened only by the restore: any write shows).
   */
  async function stateOf(target: RestoreTargetSpec): Promise<unknown> {
    if (target.kind === 'pglite') {
      const files: string[] = [];
      const walk = (at: string) => {
        for (const name of existsSync(at) ? readdirSync(at).sort() : []) {
          const file = path.join(at, name);
          const stats = statSync(file);
          if (stats.isDirectory()) walk(file);
          else files.push(`${path.relative(target.dataDir, file)} ${stats.size} ${stats.mtimeMs}`);
        }
      };
      walk(target.dataDir);
      return files;
    }
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const objects = await client.query(
        `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
         union all select 'type ' || typname from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public'
         union all select 'extension ' || extname from pg_extension
         union all select 'schema ' || nspname from pg_namespace order by 1`,
      );
      return { objects: objects.rows.map((r) => r.name), rows: await rowsOf(postgresConnectionOver(client)) };
    } finally {
      await client.end();
      await sessionsGone(target.url);
    }
  }

  /** A restore refuses a database others are connected to: the test's own connections must be gone first. */
  async function sessionsGone(url: string): Promise<void> {
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    try {
      const name = new URL(url).pathname.slice(1);
      await waitFor(`the connections to ${name} to close`, async () => (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows[0]?.n === 0, 5_000, 20);
    } finally {
      await admin.end();
    }
  }

  async function rowsOf(c: SqlConnection): Promise<Record<string, number>> {
    return c.transaction(async (session) => {
      const counts: Record<string, number> = {};
      for (const table of await listTables(session)) {
        const [row] = await session.query<{ n: number }>(`select count(*)::int as n from public.${quoteIdent(table.name)}`);
        counts[table.name] = row!.n;
      }
      return counts;
    });
  }

  /** The backup and restore entries of a database's audit trail. */
  async function backupEntries(db: Database['db']) {
    return db.select().from(auditLog).where(eq(auditLog.entity, 'backup')).orderBy(auditLog.id);
  }

  async function withRestored<T>(target: RestoreTargetSpec, work: (db: Database['db']) => Promise<T>): Promise<T> {
    const database = target.kind === 'pglite' ? fromPglite(await createPglite({ dataDir: pgliteDirOf(target.dataDir) })) : fromPostgres(target.url, 1);
    try {
      return await work(database.db);
    } finally {
      await database.close();
      if (target.kind === 'postgres') await sessionsGone(target.url);
    }
  }

  it("a backup's bytes hold no prisoner's name, not even after gunzip: it is sealed", async () => {
    const bytes = readFileSync(file);
    for (const text of [NAME.last, NAME.first, 'Type 1 diabetes', 'officer-a', 'argon2id']) {
      expect(bytes.includes(text), text).toBe(false);
      let unzipped: Buffer | null = null;
      try {
        unzipped = gunzipSync(bytes);
      } catch {
        // not gzip outside the seal
      }
      expect(unzipped?.includes(text) ?? false, text).toBe(false);
    }
    // The name is in it, for whoever holds the key: the search above could have found it.
    expect((await plainLines(file)).some((line) => line.includes(NAME.last))).toBe(true);
  });

  it('backup and restore each write an audit entry naming the file and its SHA-256', async () => {
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    const [created] = (await backupEntries(source.db)).filter((e) => e.action === 'backup.create');
    expect(created).toMatchObject({ actor: who.actor, entityId: file, after: { sha256, engine } });
    const target = await freshTarget();
    await restoreBackup({ file, target, key, who });
    const restored = await withRestored(target, (db) => backupEntries(db));
    expect(restored.map((e) => e.action)).toEqual(['backup.restore']); // the backup's own entry is after its snapshot
    expect(restored[0]).toMatchObject({ actor: who.actor, entityId: file, after: { sha256, sealed: true, forced: false } });
  }, 120_000);

  it('a changed byte, a cut-off end, a changed table re-checksummed and another key are refused before anything is written', async () => {
    const original = readFileSync(file);
    const lines = await plainLines(file);
    const promoted = rechecksum(lines.map((line) => (line.includes('"username":"officer-a"') ? line.replace('"role":"officer"', '"role":"administrator"') : line)));
    expect(promoted).not.toEqual(lines);
    const flip = (at: number) => {
      const copy = Buffer.from(original);
      copy[at] = copy[at]! ^ 0x01;
      return copy;
    };
    const forged = await sealed(promoted, randomBytes(32));
    original.copy(forged, 0, 0, SEAL_HEADER_BYTES); // the real header: magic, key id and salt
    const unsealedV1 = gzipSync(promoted.map((line) => (line.startsWith('H\t') ? line.replace('"version":2', '"version":1') : line)).join('\n'));
    const cases: [string, Buffer, RegExp][] = [
      ['a byte in the first frame', flip(SEAL_HEADER_BYTES + 10), /damaged or was changed \(frame 0/],
      ['a byte in the middle', flip(Math.floor(original.length / 2)), /damaged or was changed|damaged \(frame/],
      ['the last byte (the final tag)', flip(original.length - 1), /damaged or was changed/],
      ['a byte of the key id', flip(10), /sealed with another key/],
      ['the end cut off', original.subarray(0, original.length - 100), /incomplete/],
      ['a promoted officer, re-checksummed, unsealed', unsealedV1, /older, unsealed format \(prison-control-backup version 1\)/],
      ['a promoted officer under a made-up key with the real header', forged, /damaged or was changed/],
      ['a promoted officer sealed with another key', await sealed(promoted, randomBytes(32)), /sealed with another key/],
      ['the backup itself sealed with another key', await sealed(lines, randomBytes(32)), /sealed with another key/],
    ];
    const check = async (target: RestoreTargetSpec, force: boolean) => {
      const before = await stateOf(target);
      for (const [what, bytes, why] of cases) {
        const tampered = path.join(dir, `tampered-${++targets}.backup`);
        writeFileSync(tampered, bytes);
        const refusal = await restoreBackup({ file: tampered, target, key, force }).catch((error: Error) => error);
        expect(refusal, what).toBeInstanceOf(RestoreRefused);
        expect((refusal as Error).message, what).toMatch(why);
        expect((refusal as Error).message, what).toMatch(/Nothing was written$/);
        expect(await stateOf(target), what).toEqual(before);
      }
    };
    // A fresh target: no migrated, empty schema is left behind.
    const target = await freshTarget();
    await check(target, false);
    // One that holds a database, even forced: it is kept as it was.
    await restoreBackup({ file, target, key });
    await check(target, true);
  }, 240_000);

  it('a restore that fails after the check rolls back: a fresh target stays empty, a forced one keeps its database', async () => {
    // Sealed with the right key and checksums that match, but a row the database refuses: it fails while loading.
    const refused = rechecksum((await plainLines(file)).map((line) => (line.includes(NAME.last) ? line.replace(`"first_name":"${NAME.first}"`, '"first_name":null') : line)));
    const bad = path.join(dir, 'fails-to-load.backup');
    writeFileSync(bad, await sealed(refused, key));
    const fresh = await freshTarget();
    const empty = await stateOf(fresh);
    await expect(restoreBackup({ file: bad, target: fresh, key })).rejects.toThrow(/first_name/);
    expect(await stateOf(fresh)).toEqual(empty);

    const held = await freshTarget();
    await restoreBackup({ file, target: held, key });
    const before = await stateOf(held);
    await expect(restoreBackup({ file: bad, target: held, key, force: true })).rejects.toThrow(/first_name/);
    expect(await stateOf(held)).toEqual(before);
  }, 240_000);

  it('an older unsealed backup is refused naming its format, and restored with allowUnsealed', async () => {
    const v1 = path.join(dir, 'older.gz');
    writeFileSync(v1, gzipSync((await plainLines(file)).map((line) => (line.startsWith('H\t') ? line.replace('"version":2', '"version":1') : line)).join('\n')));
    const target = await freshTarget();
    await expect(restoreBackup({ file: v1, target, key })).rejects.toThrow(/older, unsealed format \(prison-control-backup version 1\).*--allow-unsealed/);
    await restoreBackup({ file: v1, target, key, allowUnsealed: true });
    const entries = await withRestored(target, (db) => backupEntries(db));
    expect(entries.map((e) => [e.action, (e.after as { sealed: boolean }).sealed])).toEqual([['backup.restore', false]]);
    const names = await withRestored(target, (db) => db.select({ last: prisoners.lastName }).from(prisoners).where(eq(prisoners.lastName, NAME.last)));
    expect(names).toEqual([{ last: NAME.last }]);
  }, 120_000);
});
