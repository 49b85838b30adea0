// Every registered reader in memory: its credential (sha256 of the secret, compared in constant time as device
// secrets are, decision 038), position, and the activity counted per message and written every few seconds, so a
// sighting costs no database read and a flood of refusals costs no write.
import { timingSafeEqual } from 'node:crypto';
import type { ReaderFormat } from '@prison/shared';
import { hashSecret } from '../../tracking/device-registry';

export interface ReaderPlace {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radiusM: number;
  secretHash: string;
  format: ReaderFormat;
}

/** Compared against for an unknown id, so it costs what a known one does; no secret hashes to it. */
const NO_HASH = '0'.repeat(64);

function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** What changed since the last write: readers heard (latest instant) and refusals per known reader. */
export interface ReaderActivity {
  seen: Map<string, Date>;
  refused: Map<string, number>;
}

export class ReaderRegistry {
  private readers = new Map<string, ReaderPlace>();
  private activity: ReaderActivity = { seen: new Map(), refused: new Map() };

  replaceAll(readers: ReaderPlace[]): void {
    this.readers = new Map(readers.map((reader) => [reader.id, reader]));
  }

  put(reader: ReaderPlace): void {
    this.readers.set(reader.id, reader);
  }

  remove(id: string): void {
    this.readers.delete(id);
  }

  /** The reader when the secret is its own; null for an unknown id or a wrong secret alike. */
  authenticate(id: string, secret: string): ReaderPlace | null {
    const reader = this.readers.get(id);
    const matches = secretMatches(secret, reader?.secretHash ?? NO_HASH);
    return reader && matches ? reader : null;
  }

  /**
   * The reader a gateway's broker message names, when it is registered in that format: the broker has authenticated
   * the gateway (its own user and topic rights), as the format carries no secret.
   */
  ofFormat(id: string, format: ReaderFormat): ReaderPlace | null {
    const reader = this.readers.get(id);
    return reader?.format === format ? reader : null;
  }

  has(id: string): boolean {
    return this.readers.has(id);
  }

  heard(id: string, at: Date): void {
    this.activity.seen.set(id, at);
  }

  /** A refused message naming a registered reader counts against it (an unknown id only in the metrics). */
  refused(id: string): void {
    if (this.readers.has(id)) this.activity.refused.set(id, (this.activity.refused.get(id) ?? 0) + 1);
  }

  /** Hands over what changed since the last call. */
  takeActivity(): ReaderActivity {
    const taken = this.activity;
    this.activity = { seen: new Map(), refused: new Map() };
    return taken;
  }

  /** Puts back activity a failed write did not store, so it is written next time. */
  restoreActivity(activity: ReaderActivity): void {
    for (const [id, at] of activity.seen) {
      const newer = this.activity.seen.get(id);
      if (!newer || newer < at) this.activity.seen.set(id, at);
    }
    for (const [id, n] of activity.refused) this.activity.refused.set(id, (this.activity.refused.get(id) ?? 0) + n);
  }
}
