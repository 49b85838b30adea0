// Reads a backup file's lines through its seal (decision 094), and checks a whole file before a restore touches
// anything: every frame proven with the key, every table's rows against its count and checksum, the end mark.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { PassThrough, Transform, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, TableChecksum, parseLine, type BackupHeader, type BackupLine } from './backup-file';
import { BackupSealError, SEAL_HEADER_BYTES, openStream, sniffBackup } from './backup-seal';
import type { BackupProgress, BackupSummary } from './write-backup';

/** The older format's version: unsealed gzip, restored only with `allowUnsealed`. */
export const UNSEALED_FORMAT_VERSION = 1;

/** The file cannot be restored: the message says why, for "FILE is not restored: ...". */
export class BackupFileError extends Error {}

export interface ReadOptions {
  key: Buffer;
  /** Accept a backup of the older, unsealed format (version 1), whose content nothing proves. */
  allowUnsealed?: boolean;
}

/** The text lines of a byte stream; the stream's error ends the iteration with that error. */
async function* readLines(input: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  for await (const chunk of input) {
    const text = decoder.write(chunk as Buffer);
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      pending.push(text.slice(start, end));
      yield pending.join('');
      pending = [];
      start = end + 1;
    }
    if (start < text.length) pending.push(text.slice(start));
  }
  pending.push(decoder.end());
  const last = pending.join('');
  if (last) yield last;
}

/** A pipeline's last stream; an error anywhere in it destroys that stream with the error, so readers see it. */
function chain(first: Readable, ...rest: Transform[]): Readable {
  const out = new PassThrough();
  pipeline([first, ...rest, out], () => undefined);
  return out;
}

async function* linesOf(input: Readable): AsyncGenerator<BackupLine> {
  let number = 0;
  for await (const text of readLines(input)) {
    number += 1;
    if (text) yield parseLine(text, number);
  }
}

/** Passes bytes on, showing each chunk to `see` (a hash of the file as it is read). */
const tap = (see?: (chunk: Buffer) => void): Transform[] =>
  see ? [new Transform({ transform: (chunk: Buffer, _encoding, done) => (see(chunk), done(null, chunk)) })] : [];

/** The plain lines of a sealed stream (the backup socket's, or a sealed file's bytes). */
export function sealedLines(input: Readable, key: Buffer, see?: (chunk: Buffer) => void): AsyncGenerator<BackupLine> {
  return linesOf(chain(input, ...tap(see), openStream(key), createGunzip()));
}

/** What the first bytes of a file say it is. */
function sniffFile(file: string): ReturnType<typeof sniffBackup> {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(SEAL_HEADER_BYTES);
    return sniffBackup(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of a backup file, its seal proven frame by frame as they are read; `onBytes` sees the file's bytes.
 * Throws a BackupFileError for an unsealed file unless allowed, and for a file that is no backup at all.
 */
export async function* backupFileLines(file: string, options: ReadOptions, onBytes?: (chunk: Buffer) => void): AsyncGenerator<BackupLine> {
  const kind = sniffFile(file);
  if (kind === 'unsealed') {
    if (!options.allowUnsealed)
      throw new BackupFileError(
        'it is a backup of the older, unsealed format (prison-control-backup version 1): nothing proves it was not changed. ' +
          'If you know it was written before this version, restore it with --allow-unsealed',
      );
    yield* linesOf(chain(createReadStream(file), ...tap(onBytes), createGunzip()));
    return;
  }
  if (kind !== 'sealed') throw new BackupFileError('it is not a backup file of this application');
  yield* sealedLines(createReadStream(file), options.key, onBytes);
}

/** A seal or format error as the reason a file is refused. */
export function refusalOf(error: unknown): BackupFileError {
  if (error instanceof BackupFileError) return error;
  if (error instanceof BackupSealError) return new BackupFileError(error.message);
  const message = (error as Error).message ?? String(error);
  // zlib's words for a gzip stream that does not decode
  return new BackupFileError(/incorrect header|invalid|unexpected end|unknown compression/i.test(message) ? `it is damaged (${message})` : message);
}

export interface CheckedBackup extends BackupSummary {
  header: BackupHeader;
  sealed: boolean;
  /** SHA-256 of the file's bytes. */
  sha256: string;
}

/**
 * Reads the whole file once and checks it: the seal of every frame and its end, the format, each table's rows
 * against its count and checksum, the totals of the end mark, nothing after it. Throws a BackupFileError.
 */
export async function checkBackupFile(file: string, options: ReadOptions): Promise<CheckedBackup> {
  const sealed = sniffFile(file) === 'sealed';
  const hash = createHash('sha256');
  let header: BackupHeader | undefined;
  let table: { name: string; checksum: TableChecksum } | undefined;
  let tables = 0;
  let rows = 0;
  let end: BackupSummary | undefined;
  try {
    for await (const line of backupFileLines(file, options, (chunk) => hash.update(chunk))) {
      if (end) throw new BackupFileError('it has lines after its end mark');
      if (!header) {
        if (line.kind !== 'H' || line.value.format !== BACKUP_FORMAT) throw new BackupFileError('it is not a backup file of this application');
        const version = sealed ? BACKUP_FORMAT_VERSION : UNSEALED_FORMAT_VERSION;
        if (line.value.version !== version && !(sealed && line.value.version === UNSEALED_FORMAT_VERSION))
          throw new BackupFileError(`it says it is format version ${line.value.version}, which a${sealed ? ' sealed' : 'n unsealed'} file of this version is not`);
        header = line.value;
      } else if (line.kind === 'T') {
        if (table) throw new BackupFileError(`it is damaged (table ${line.value.table} starts inside table ${table.name})`);
        table = { name: line.value.table, checksum: new TableChecksum() };
      } else if (line.kind === 'R') {
        if (!table) throw new BackupFileError('it is damaged (a row outside any table)');
        table.checksum.add(line.row);
      } else if (line.kind === 'E') {
        if (table?.name !== line.value.table) throw new BackupFileError(`it is damaged (the end of table ${line.value.table} does not close it)`);
        const count = table.checksum.rows;
        if (count !== line.value.rows || table.checksum.digest() !== line.value.sha256)
          throw new BackupFileError(`it is damaged (table ${table.name}: ${count} rows that do not match its count ${line.value.rows} and checksum)`);
        tables += 1;
        rows += count;
        table = undefined;
      } else if (line.kind === 'Z') {
        if (table) throw new BackupFileError(`it is damaged (it ends inside table ${table.name})`);
        if (line.value.tables !== tables || line.value.rows !== rows)
          throw new BackupFileError(`it is damaged (its end mark counts ${line.value.tables} tables and ${line.value.rows} rows, it holds ${tables} and ${rows})`);
        end = line.value;
      } else if (line.kind === 'H') {
        throw new BackupFileError('it is damaged (a second header)');
      }
    }
  } catch (error) {
    throw refusalOf(error);
  }
  if (!header) throw new BackupFileError('it is empty');
  if (!end) throw new BackupFileError('it is incomplete (it has no end mark)');
  return { header, sealed, tables: end.tables, rows: end.rows, sha256: hash.digest('hex') };
}

/** Reads a sealed backup's lines, reporting each table's end; throws unless it ends with the end mark. */
export async function readBackupSummary(input: Readable, key: Buffer, progress?: BackupProgress): Promise<BackupSummary> {
  let summary: BackupSummary | undefined;
  for await (const line of sealedLines(input, key)) {
    if (line.kind === 'E') progress?.table(line.value.table, line.value.rows);
    if (line.kind === 'Z') summary = line.value;
  }
  if (!summary) throw new Error('the backup is incomplete (it has no end mark)');
  return summary;
}
