// Where the key of the secret box comes from (decision 054): SECRET_KEY, or a key file created beside the data
// directory on first start (mode 0600), so a copy of the data directory alone does not carry its key. Backups are
// sealed with BACKUP_KEY, or else with that same key (decision 094).
import { randomBytes, scryptSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSecretBox, SECRET_KEY_BYTES } from './secret-box';
import { StartRefusal } from './start-refusal';

/** A passphrase shorter than this is refused: it would be the weakest part of the scheme. */
export const MIN_PASSPHRASE_LENGTH = 20;
// A fixed salt: the passphrase must give the same key on every process of a cluster. A random key is better (README).
const PASSPHRASE_SALT = 'prison-control/secret-key/v1';
const BACKUP_PASSPHRASE_SALT = 'prison-control/backup-key/v1';

/** 64 hex digits or base64 of 32 bytes: the key itself. */
function rawKey(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === SECRET_KEY_BYTES) return bytes;
  }
  return null;
}

/** Why SECRET_KEY cannot be used, or null; cheap, for the configuration check at start. */
export function secretKeyProblem(value: string): string | null {
  const text = value.trim();
  if (rawKey(text) || text.length >= MIN_PASSPHRASE_LENGTH) return null;
  return (
    'must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32), ' +
    `or a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters`
  );
}

/**
 * The key SECRET_KEY gives: 64 hex digits or base64 of 32 bytes are the key itself; anything else of at least
 * MIN_PASSPHRASE_LENGTH characters is a passphrase stretched by scrypt. Throws a message naming SECRET_KEY.
 */
export function keyFromSecretKey(value: string, variable = 'SECRET_KEY', salt = PASSPHRASE_SALT): Buffer {
  const problem = secretKeyProblem(value);
  if (problem) throw new Error(`Invalid configuration ${variable}: ${problem}`);
  const text = value.trim();
  return (
    rawKey(text) ??
    scryptSync(text, salt, SECRET_KEY_BYTES, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 })
  );
}

/** The key file of a data directory: beside it, not inside, so a backup of the data holds no key. */
export function keyFilePath(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.key`);
}

/**
 * Reads the key file, or creates it with a new random key (mode 0600). The new key is written to a file of this
 * process and then linked into place, which fails if the file exists: processes starting together on one machine
 * all end up with the one complete key the first linked.
 */
export function keyFromFile(file: string): { key: Buffer; created: boolean } {
  mkdirSync(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  let created = true;
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    unlinkSync(draft);
  }
  return { key: readKeyFile(file), created };
}

function readKeyFile(file: string): Buffer {
  const bytes = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (bytes.length !== SECRET_KEY_BYTES)
    throw new Error(`The key file ${file} does not hold a ${SECRET_KEY_BYTES}-byte key`);
  return bytes;
}

/** The key a start has before it reads the database: SECRET_KEY, the key file, or no key file yet (`key` null). */
export type StartKey =
  | { key: Buffer; source: 'SECRET_KEY' }
  | { key: Buffer; source: 'key file'; file: string }
  | { key: null; source: 'no key file'; file: string };

/**
 * The key of this process without writing anything: SECRET_KEY when set, else the data directory's key file if it
 * exists. A key file that cannot be read or holds no key is a StartRefusal naming it.
 */
export function readStartKey(env: { SECRET_KEY?: string; DATA_DIR: string }): StartKey {
  if (env.SECRET_KEY) return { key: keyFromSecretKey(env.SECRET_KEY), source: 'SECRET_KEY' };
  const file = keyFilePath(env.DATA_DIR);
  if (!existsSync(file)) return { key: null, source: 'no key file', file };
  try {
    return { key: readKeyFile(file), source: 'key file', file };
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ? `cannot be read (${(error as NodeJS.ErrnoException).code})` : `does not hold a ${SECRET_KEY_BYTES}-byte key`;
    throw new StartRefusal(`The key file ${file} ${why}: ${RESTORE_KEY}; nothing was changed`);
  }
}

const RESTORE_KEY = 'restore the key file that was backed up with the data, or set SECRET_KEY to the key the two-factor secrets were sealed with';

/**
 * The key of this process once the database's sealed two-factor secrets are known (`sealed`): one that does not open
 * them, or no key file while there are some (a restored database without its key), is a StartRefusal and nothing is
 * written; the key file is created only for a database that holds no sealed secret.
 */
export function settleSecretKey(start: StartKey, sealed: readonly string[]): {
  key: Buffer;
  source: 'SECRET_KEY' | 'key file created' | 'key file';
  file?: string;
} {
  if (start.key === null) {
    if (sealed.length > 0)
      throw new StartRefusal(
        `The key file ${start.file} is missing, but the database holds two-factor secrets sealed with a key: ${RESTORE_KEY}; nothing was written`,
      );
    const { key, created } = keyFromFile(start.file);
    return { key, source: created ? 'key file created' : 'key file', file: start.file };
  }
  const box = createSecretBox(start.key);
  const opens = (stored: string) => {
    try {
      box.open(stored);
      return true;
    } catch {
      return false;
    }
  };
  if (!sealed.every(opens)) {
    throw new StartRefusal(
      start.source === 'SECRET_KEY'
        ? 'SECRET_KEY does not open the two-factor secrets in the database (they were sealed with another key): set SECRET_KEY to the key they were sealed with, or unset it and restore the key file that was backed up with the data; nothing was changed'
        : `The key file ${start.file} does not open the two-factor secrets in the database (they were sealed with another key): ${RESTORE_KEY}; the key file was left as it is`,
    );
  }
  return start;
}

/** The key of this process where no database is read: SECRET_KEY when set, else the key file (created if missing). */
export function loadSecretKey(env: { SECRET_KEY?: string; DATA_DIR: string }): ReturnType<typeof settleSecretKey> {
  return settleSecretKey(readStartKey(env), []);
}

export type BackupKeySource = 'BACKUP_KEY' | 'SECRET_KEY' | 'key file';

/**
 * The key backups are sealed and opened with: BACKUP_KEY (the same forms as SECRET_KEY), else SECRET_KEY, else the
 * data directory's key file. `secretKey`: the one this process already loaded (the server's). Without one, the key
 * file is read, never created: a backup tool making a new key would seal with, or look for, a key nobody has.
 */
export function loadBackupKey(
  env: { BACKUP_KEY?: string; SECRET_KEY?: string; DATA_DIR: string },
  secretKey?: Buffer,
): { key: Buffer; source: BackupKeySource; file?: string } {
  if (env.BACKUP_KEY) return { key: keyFromSecretKey(env.BACKUP_KEY, 'BACKUP_KEY', BACKUP_PASSPHRASE_SALT), source: 'BACKUP_KEY' };
  if (secretKey) return { key: secretKey, source: env.SECRET_KEY ? 'SECRET_KEY' : 'key file' };
  if (env.SECRET_KEY) return { key: keyFromSecretKey(env.SECRET_KEY), source: 'SECRET_KEY' };
  const file = keyFilePath(env.DATA_DIR);
  if (!existsSync(file))
    throw new Error(
      `there is no backup key: no BACKUP_KEY or SECRET_KEY is set and there is no key file ${file}. ` +
        'Backups are sealed with the key of the server that wrote them: copy its key file there (mode 0600), or set the BACKUP_KEY it used',
    );
  return { key: readKeyFile(file), source: 'key file', file };
}
