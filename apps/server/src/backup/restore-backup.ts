// Restores a backup file into an empty database (or, forced, a cleared one): migrations up to the backup's level,
// every row in one transaction, sequences, then each table's count and checksum checked against the file before the
// commit, and this version's remaining migrations last (decision 058).
import { createReadStream, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { BACKUP_FORMAT, ROWS_PER_BATCH, TableChecksum, parseLine, type BackupHeader, type BackupLine, type TableStart } from './backup-file';
import { matchingMigrations, migrationsFolderUpTo } from './migrations-prefix';
import {
  clearDatabase,
  databaseProblem,
  movePgliteDirAside,
  openTarget,
  otherSessions,
  pgliteDirOf,
  pgliteDirProblem,
  type RestoreTargetSpec,
} from './restore-target';
import type { SqlSession } from './sql-connection';
import { forEachRow, listTables, quoteIdent, rowsQuery } from './table-catalog';

export interface RestoreOptions {
  file: string;
  target: RestoreTargetSpec;
  /** Replace a database that is not empty (PGlite: the old directory is moved aside, not deleted). */
  force?: boolean;
  /** Refuses when a server answers on this data directory (PGlite); see backup-socket.ts. */
  serverRunning?: () => Promise<boolean>;
  say?: (message: string) => void;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  movedAside?: string;
}

/** Thrown for a refusal the operator can act on (exit code 2 on the command line). */
export class RestoreRefused extends Error {}

async function* backupLines(file: string): AsyncGenerator<BackupLine> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text) yield parseLine(text, number);
  }
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const say = options.say ?? (() => undefined);
  const lines = backupLines(options.file);
  const first = await lines.next().catch((error: Error) => {
    throw new RestoreRefused(`${options.file} is not a backup file (${error.message})`);
  });
  const header = !first.done && first.value.kind === 'H' ? (first.value.value as BackupHeader) : undefined;
  if (header?.format !== BACKUP_FORMAT) throw new RestoreRefused(`${options.file} is not a backup file of this application`);
  let level: number;
  try {
    level = matchingMigrations(header.migrations);
  } catch (error) {
    throw new RestoreRefused((error as Error).message);
  }
  say(`Backup of ${header.createdAt} (${header.engine}, ${level} database migrations).`);

  let movedAside: string | undefined;
  if (options.target.kind === 'pglite') {
    if (await options.serverRunning?.()) throw new RestoreRefused('a server is running on this data directory: stop it first');
    const problem = pgliteDirProblem(options.target.dataDir);
    if (problem && !options.force) throw new RestoreRefused(`${problem}; add --force to replace it (it is moved aside, not deleted)`);
    if (problem) {
      movedAside = movePgliteDirAside(options.target.dataDir);
      say(`The database that was there is moved aside to ${movedAside}.`);
    }
  }
  const target = await openTarget(options.target);
  const folder = migrationsFolderUpTo(level);
  let restored = false;
  try {
    if (options.target.kind === 'postgres') {
      const others = await target.connection.transaction((s) => otherSessions(s));
      if (others > 0) throw new RestoreRefused(`${others} other sessions are connected to ${target.description} (a running server?): stop them first`);
      const problem = await target.connection.transaction((s) => databaseProblem(s, header.migrations));
      if (problem && !options.force) throw new RestoreRefused(`${target.description} is not empty (${problem}); add --force to replace everything in it`);
      if (problem) {
        await target.connection.transaction((s) => clearDatabase(s));
        say(`Everything in ${target.description} was dropped (--force).`);
      }
    }
    say(`Restoring into ${target.description}...`);
    await target.migrate(folder);
    const summary = await target.connection.transaction((session) => loadRows(session, lines, say));
    await target.migrate(); // this version's remaining migrations, if the backup is older
    restored = true;
    say(`Restored ${summary.rows} rows in ${summary.tables} tables into ${target.description}; every table's count and checksum match the backup.`);
    return { ...summary, movedAside };
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await target.close();
    // A PGlite directory this restore made (it was empty, or the old one was moved aside) and could not fill is
    // removed, so the next try finds it empty.
    if (!restored && options.target.kind === 'pglite') rmSync(pgliteDirOf(options.target.dataDir), { recursive: true, force: true });
  }
}

async function loadRows(session: SqlSession, lines: AsyncGenerator<BackupLine>, say: (message: string) => void): Promise<{ tables: number; rows: number }> {
  await session.query(`set local timezone = 'UTC'`);
  const shapes = new Map((await listTables(session)).map((table) => [table.name, table]));
  const expected = new Map<string, { rows: number; sha256: string; columns: string[] }>();
  let current: TableStart | undefined;
  let batch: string[] = [];
  let total = 0;
  let complete = false;
  const flush = async () => {
    if (!current || batch.length === 0) return;
    const columns = current.columns.map(quoteIdent).join(', ');
    const relation = `public.${quoteIdent(current.table)}`;
    await session.query(`insert into ${relation} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${relation}, $1::json)`, [`[${batch.join(',')}]`]);
    total += batch.length;
    batch = [];
  };
  for await (const line of lines) {
    if (line.kind === 'T') {
      if (!shapes.has(line.value.table)) throw new Error(`the backup has a table this database does not: ${line.value.table}`);
      current = line.value;
    } else if (line.kind === 'R') {
      batch.push(line.row);
      if (batch.length >= ROWS_PER_BATCH) await flush();
    } else if (line.kind === 'E') {
      await flush();
      expected.set(line.value.table, { rows: line.value.rows, sha256: line.value.sha256, columns: current?.columns ?? [] });
      say(`  ${line.value.table}: ${line.value.rows} rows`);
      current = undefined;
    } else if (line.kind === 'S') {
      for (const sequence of line.value) {
        const name = `public.${quoteIdent(sequence.name)}`;
        if (sequence.lastValue === null) await session.query('select setval($1::regclass, 1, false)', [name]);
        else await session.query('select setval($1::regclass, $2::bigint, true)', [name, sequence.lastValue]);
      }
    } else if (line.kind === 'Z') {
      complete = true;
    }
  }
  if (!complete) throw new Error('the backup file is incomplete (it has no end mark): nothing was restored');
  say('Checking every table against the backup...');
  for (const [name, want] of expected) {
    const shape = shapes.get(name)!;
    const checksum = new TableChecksum();
    await forEachRow<{ r: string }>(session, rowsQuery({ ...shape, columns: want.columns }), ROWS_PER_BATCH, ({ r }) => checksum.add(r));
    if (checksum.rows !== want.rows || checksum.digest() !== want.sha256)
      throw new Error(`table ${name} differs from the backup after restoring (${checksum.rows} rows, the backup has ${want.rows}): nothing was restored`);
  }
  return { tables: expected.size, rows: total };
}
