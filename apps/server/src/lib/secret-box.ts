// Seals short secrets for storage (two-factor secrets, decision 054): AES-256-GCM with a random 96-bit nonce per
// value, so a copy of the database alone does not give away anyone's second factor.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Stored form: `v1:` + base64url(nonce 12 bytes | tag 16 bytes | ciphertext); the prefix names the scheme. */
const PREFIX = 'v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

export interface SecretBox {
  seal(plain: string): string;
  /** The plain value; a value stored before sealing existed (no prefix) is answered as it is. Throws on a wrong key. */
  open(stored: string): string;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secret key is ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
  return {
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('a sealed secret is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
