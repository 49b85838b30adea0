// Restores a backup file into an empty database (or, forced, a cleared one). The whole file is checked first, its
// seal and every table's checksum, before anything is written (decision 094); then, in one transaction: migrations up
// to the backup's level, every row, sequences, each table's count and checksum checked against the file, this
// version's remaining migrations and the audit entry (decision 058). A failure leaves the target as it was: the
// transaction rolls back (on PostgreSQL, the forced clearing with it), and a PGlite restore is made beside the data
// directory and put in place only once committed.
import { rmSync } from 'node:fs';
import { recordAuditOnSession, type AuditActor } from '../lib/audit';
import { ROWS_PER_BATCH, TableChecksum, type BackupLine, type TableStart } from './backup-file';
import { applyMigrations, matchingMigrations } from './migrations-prefix';
import { backupFileLines, checkBackupFile, type CheckedBackup } from './read-backup';
import {
  clearDatabase,
  databaseProblem,
  movePgliteDirAside,
  openTarget,
  otherSessions,
  pgliteDirProblem,
  pgliteStagingDirOf,
  putPgliteDirInPlace,
  type RestoreTargetSpec,
} from './restore-target';
import type { SqlSession } from './sql-connection';
import { forEachRow, listTables, quoteIdent, rowsQuery } from './table-catalog';
import { BACKUP_AUDIT_ENTITY } from './write-backup';

export interface RestoreOptions {
  file: string;
  target: RestoreTargetSpec;
  /** The backup key (lib/secret-key.ts loadBackupKey): a file sealed with another is refused. */
  key: Buffer;
  /** Restore a backup of the older, unsealed format (decision 094): nothing proves it was not changed. */
  allowUnsealed?: boolean;
  /** Replace a database that is not empty (PGlite: the old directory is moved aside, not deleted). */
  force?: boolean;
  /** Refuses when a server answers on this data directory (PGlite); see backup-socket.ts. */
  serverRunning?: () => Promise<boolean>;
  say?: (message: string) => void;
  /** Who restores, for the audit entry; the command line by default. */
  who?: AuditActor;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  movedAside?: string;
}

/** Thrown for a refusal the operator can act on (exit code 2 on the command line); nothing was written. */
export class RestoreRefused extends Error {}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const say = options.say ?? (() => undefined);
  const read = { key: options.key, allowUnsealed: options.allowUnsealed };
  say(`Checking ${options.file}: its seal and every table's count and checksum...`);
  let checked: CheckedBackup;
  try {
    checked = await checkBackupFile(options.file, read);
  } catch (error) {
    throw new RestoreRefused(`${options.file} cannot be restored: ${(error as Error).message}. Nothing was written`);
  }
  const { header } = checked;
  let level: number;
  try {
    level = matchingMigrations(header.migrations);
  } catch (error) {
    throw new RestoreRefused((error as Error).message);
  }
  say(`Backup of ${header.createdAt} (${header.engine}, ${level} database migrations, ${checked.tables} tables, ${checked.rows} rows), ${checked.sealed ? 'its seal proven with the backup key' : 'UNSEALED (the older format): nothing proves it was not changed'}.`);

  let pgliteProblem: string | null = null;
  let staging: string | undefined;
  if (options.target.kind === 'pglite') {
    if (await options.serverRunning?.()) throw new RestoreRefused('a server is running on this data directory: stop it first');
    pgliteProblem = pgliteDirProblem(options.target.dataDir);
    if (pgliteProblem && !options.force) throw new RestoreRefused(`${pgliteProblem}; add --force to replace it (it is moved aside, not deleted)`);
    staging = pgliteStagingDirOf(options.target.dataDir);
  }
  const target = await openTarget(options.target, staging);
  let summary: { tables: number; rows: number };
  try {
    let clear = false;
    if (options.target.kind === 'postgres') {
      const others = await target.connection.transaction((s) => otherSessions(s));
      if (others > 0) throw new RestoreRefused(`${others} other sessions are connected to ${target.description} (a running server?): stop them first`);
      const problem = await target.connection.transaction((s) => databaseProblem(s, header.migrations));
      if (problem && !options.force) throw new RestoreRefused(`${target.description} is not empty (${problem}); add --force to replace everything in it`);
      clear = Boolean(problem);
    }
    say(`Restoring into ${target.description}...`);
    summary = await target.connection.transaction(async (session) => {
      if (clear) {
        await clearDatabase(session);
        say(`Everything in ${target.description} is dropped (--force), in the restore's transaction: kept if it fails.`);
      }
      await applyMigrations(session, level);
      const loaded = await loadRows(session, backupFileLines(options.file, read), say);
      await applyMigrations(session); // this version's remaining migrations, if the backup is older
      await recordAuditOnSession(session, options.who ?? { adminId: null, actor: 'cli' }, {
        action: 'backup.restore',
        entity: BACKUP_AUDIT_ENTITY,
        entityId: options.file,
        after: { createdAt: header.createdAt, engine: header.engine, tables: loaded.tables, rows: loaded.rows, sha256: checked.sha256, sealed: checked.sealed, forced: clear || Boolean(pgliteProblem) },
      });
      return loaded;
    });
  } catch (error) {
    await target.close();
    if (staging) rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  await target.close();
  let movedAside: string | undefined;
  if (options.target.kind === 'pglite') {
    if (pgliteProblem) {
      movedAside = movePgliteDirAside(options.target.dataDir);
      say(`The database that was there is moved aside to ${movedAside}.`);
    }
    putPgliteDirInPlace(options.target.dataDir, staging!);
  }
  say(`Restored ${summary.rows} rows in ${summary.tables} tables into ${target.description}; every table's count and checksum match the backup.`);
  return { ...summary, movedAside };
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
