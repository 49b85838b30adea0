// Seals a backup file (decision 094): the gzip stream of backup-file.ts, encrypted and authenticated with AES-256-GCM
// in frames, so a file of any size is written and read as a stream and nothing is released before it is proven.
//
// File:  header | frame ... | final frame
// header (33 bytes): "PCBACKUP" | seal version (1) | key id (8) | salt (16). The key id names the key (HMAC of it, so
//        it gives nothing away) to tell "another key" from "damaged"; the salt makes this file's own key (HKDF), so
//        no two files ever share a key and nonce, and a frame of one file is nothing in another.
// frame: ciphertext length (4, big endian) | ciphertext | GCM tag (16). The nonce is the frame's number and whether
//        it is the last; the header is the additional data of every frame. A frame changed, moved, dropped or taken
//        from another file fails its tag; a file without its final frame (truncated) or with bytes after it is refused.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { SECRET_KEY_BYTES } from '../lib/secret-box';

const MAGIC = Buffer.from('PCBACKUP', 'latin1');
const SEAL_VERSION = 1;
const KEY_ID_BYTES = 8;
const SALT_BYTES = 16;
export const SEAL_HEADER_BYTES = MAGIC.length + 1 + KEY_ID_BYTES + SALT_BYTES;
const LENGTH_BYTES = 4;
const TAG_BYTES = 16;
/** Plain bytes per frame: small enough to hold in memory, large enough that the 20 bytes of each frame are noise. */
export const FRAME_BYTES = 64 * 1024;
/** What a reader accepts as one frame's length: anything longer is damage, not a frame to buffer. */
const MAX_FRAME_BYTES = 1024 * 1024;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** Why a file cannot be opened; `kind` lets the restore word its refusal. */
export class BackupSealError extends Error {
  constructor(
    readonly kind: 'unsealed' | 'not-a-backup' | 'other-key' | 'damaged' | 'incomplete',
    message: string,
  ) {
    super(message);
    this.name = 'BackupSealError';
  }
}

/** The key id written in the header: who holds the key can say whether a file is theirs. */
export function backupKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('prison-control/backup/key-id').digest().subarray(0, KEY_ID_BYTES).toString('hex');
}

function fileKey(key: Buffer, salt: Buffer): Buffer {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`a backup key is ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
  return Buffer.from(hkdfSync('sha256', key, salt, 'prison-control/backup/v1', 32));
}

function nonce(index: bigint, final: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes[3] = final ? 1 : 0;
  bytes.writeBigUInt64BE(index, 4);
  return bytes;
}

/** A Transform from plain bytes to a sealed file. */
export function sealStream(key: Buffer): Transform {
  const salt = randomBytes(SALT_BYTES);
  const header = Buffer.concat([MAGIC, Buffer.from([SEAL_VERSION]), Buffer.from(backupKeyId(key), 'hex'), salt]);
  const frameKey = fileKey(key, salt);
  let index = 0n;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let headerSent = false;
  const frame = (plain: Buffer, final: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', frameKey, nonce(index++, final));
    cipher.setAAD(header);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    const length = Buffer.alloc(LENGTH_BYTES);
    length.writeUInt32BE(sealed.length);
    return Buffer.concat([length, sealed, cipher.getAuthTag()]);
  };
  const sendHeader = (stream: Transform) => {
    if (!headerSent) stream.push(header);
    headerSent = true;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      sendHeader(this);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= FRAME_BYTES) {
        let all = Buffer.concat(pending);
        // Keep the last, possibly short, piece back: the final frame is sealed as final.
        while (all.length > FRAME_BYTES) {
          this.push(frame(all.subarray(0, FRAME_BYTES), false));
          all = all.subarray(FRAME_BYTES);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      done();
    },
    flush(done: TransformCallback) {
      sendHeader(this);
      this.push(frame(Buffer.concat(pending), true));
      pending = [];
      done();
    },
  });
}

/** Reads a file's first bytes: the seal's header, a backup of the older unsealed format, or neither. */
export function sniffBackup(first: Buffer): 'sealed' | 'unsealed' | 'unknown' {
  if (first.length >= MAGIC.length && first.subarray(0, MAGIC.length).equals(MAGIC)) return 'sealed';
  if (first.length >= 2 && first.subarray(0, 2).equals(GZIP_MAGIC)) return 'unsealed';
  return 'unknown';
}

/**
 * A Transform from a sealed file to its plain bytes. Each frame's bytes are passed on only once its tag is checked;
 * the stream fails with a BackupSealError on another key, any damage, a missing final frame or bytes after it.
 */
export function openStream(key: Buffer): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let header: Buffer | null = null;
  let frameKey: Buffer | null = null;
  let index = 0n;
  let finished = false;
  const open = (sealed: Buffer, tag: Buffer, final: boolean): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', frameKey!, nonce(index, final));
    decipher.setAAD(header!);
    decipher.setAuthTag(tag);
    const plain = decipher.update(sealed);
    decipher.final(); // throws when the tag does not match
    index += 1n;
    return plain;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        if (!header) {
          if (buffered.length < SEAL_HEADER_BYTES) return done();
          const head = buffered.subarray(0, SEAL_HEADER_BYTES);
          const kind = sniffBackup(head);
          if (kind === 'unsealed') throw new BackupSealError('unsealed', 'it is a backup of the older, unsealed format (prison-control-backup version 1)');
          if (kind !== 'sealed') throw new BackupSealError('not-a-backup', 'it is not a backup file of this application');
          if (head[MAGIC.length] !== SEAL_VERSION) throw new BackupSealError('not-a-backup', `it is sealed in a format this version does not know (seal version ${head[MAGIC.length]})`);
          const keyId = head.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_BYTES).toString('hex');
          if (keyId !== backupKeyId(key))
            throw new BackupSealError('other-key', `it was sealed with another key (key id ${keyId}; this key's is ${backupKeyId(key)})`);
          header = Buffer.from(head);
          frameKey = fileKey(key, header.subarray(MAGIC.length + 1 + KEY_ID_BYTES));
          buffered = buffered.subarray(SEAL_HEADER_BYTES);
        }
        for (;;) {
          if (buffered.length === 0) break;
          if (finished) throw new BackupSealError('damaged', 'it has bytes after its last frame');
          if (buffered.length < LENGTH_BYTES) break;
          const length = buffered.readUInt32BE(0);
          if (length > MAX_FRAME_BYTES) throw new BackupSealError('damaged', `it is damaged (frame ${index} claims ${length} bytes)`);
          const total = LENGTH_BYTES + length + TAG_BYTES;
          if (buffered.length < total) break;
          const sealed = buffered.subarray(LENGTH_BYTES, LENGTH_BYTES + length);
          const tag = buffered.subarray(LENGTH_BYTES + length, total);
          let plain: Buffer;
          try {
            plain = open(sealed, tag, false);
          } catch {
            try {
              plain = open(sealed, tag, true);
              finished = true;
            } catch {
              throw new BackupSealError('damaged', `it is damaged or was changed (frame ${index} does not prove with this key)`);
            }
          }
          buffered = buffered.subarray(total);
          if (plain.length > 0) this.push(plain);
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback) {
      if (!header) return done(buffered.length === 0 ? new BackupSealError('not-a-backup', 'it is empty') : new BackupSealError('not-a-backup', 'it is not a backup file of this application'));
      if (!finished || buffered.length > 0) return done(new BackupSealError('incomplete', 'it is incomplete (it was cut short: its last frame is missing)'));
      done();
    },
  });
}
