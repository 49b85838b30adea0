// The backup file format (decision 058): gzip of tab-prefixed lines, one engine-neutral format for PGlite and
// PostgreSQL. H header, T table start, R one row as JSON (row_to_json), E table end with its count and checksum,
// S the sequences, Z the end (a file without Z is incomplete and is refused). Since version 2 the gzip stream is
// sealed (backup-seal.ts, decision 094): the checksums find damage, the seal proves who wrote it.
import { createHash } from 'node:crypto';
import type { AppliedMigration, SequenceValue } from './table-catalog';

export const BACKUP_FORMAT = 'prison-control-backup';
/** 2: sealed; 1: the older unsealed files, restored only when asked for (decision 094). */
export const BACKUP_FORMAT_VERSION = 2;
/** Rows fetched per round trip while writing, and inserted per statement while restoring. */
export const ROWS_PER_BATCH = 2_000;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  engine: 'pglite' | 'postgres';
  migrations: AppliedMigration[];
}

export interface TableStart {
  table: string;
  columns: string[];
}

export interface TableEnd {
  table: string;
  rows: number;
  sha256: string;
}

export interface BackupEnd {
  tables: number;
  rows: number;
}

export type BackupLine =
  | { kind: 'H'; value: BackupHeader }
  | { kind: 'T'; value: TableStart }
  | { kind: 'R'; row: string }
  | { kind: 'E'; value: TableEnd }
  | { kind: 'S'; value: SequenceValue[] }
  | { kind: 'Z'; value: BackupEnd };

export function formatLine(line: BackupLine): string {
  return line.kind === 'R' ? `R\t${line.row}\n` : `${line.kind}\t${JSON.stringify(line.value)}\n`;
}

export function parseLine(text: string, lineNumber: number): BackupLine {
  const kind = text.slice(0, 2);
  const body = text.slice(2);
  if (kind === 'R\t') return { kind: 'R', row: body };
  if (!['H\t', 'T\t', 'E\t', 'S\t', 'Z\t'].includes(kind)) throw new Error(`not a backup file (line ${lineNumber} is not one of ours)`);
  try {
    return { kind: kind[0], value: JSON.parse(body) } as BackupLine;
  } catch {
    throw new Error(`damaged backup file (line ${lineNumber} is not readable)`);
  }
}

/** The checksum of a table: SHA-256 over its rows' JSON text in key order, one per line. */
export class TableChecksum {
  private readonly hash = createHash('sha256');
  rows = 0;
  add(row: string): void {
    this.hash.update(row).update('\n');
    this.rows += 1;
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}
