// What every reader message format implements (the readers' MQTT subscription and HTTP routes pick one by the reader's
// `format`): where its messages arrive, which reader a topic names, and the tag sightings of one message, so every
// format becomes the same sightings and goes through the same intake.
import type { ReaderFormat, SightingTag } from '@prison/shared';
import { MAX_SIGHTING_TAGS } from '@prison/shared';

export interface DecodedSightings {
  /** The reader's secret, for a format that carries it in each message (ours). */
  secret?: string;
  tags: SightingTag[];
}

export interface SightingDecoder {
  readonly format: ReaderFormat;
  /** The MQTT topic filter its gateways publish on. */
  readonly topicFilter: string;
  /** The reader id a topic of this format names; null for a topic that is not this format's. */
  readerOf(topic: string): string | null;
  /** The sightings in one parsed JSON message; null when the message is not of this format (a refusal). */
  decode(body: unknown): DecodedSightings | null;
}

const MAC = /^[0-9a-f]{12}$/i;

/**
 * A BLE tag's address as a tracker id: AA:BB:CC:DD:EE:FF whatever the gateway wrote (`aabbccddeeff`, dashes, lower
 * case), so a tag registered once is the same tracker whichever gateway sees it. Other ids are kept as sent.
 */
export function tagIdOf(address: string): string {
  const bare = address.replace(/[:-]/g, '');
  return MAC.test(bare) ? bare.toUpperCase().replace(/(..)(?!$)/g, '$1:') : address;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One gateway entry as a sighting: an address of 1-100 characters and an RSSI in range; null otherwise. */
export function sightingOf(entry: unknown, idKey: string, atKey?: string): SightingTag | null {
  if (!isObject(entry)) return null;
  const id = entry[idKey];
  const rssi = entry.rssi;
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) return null;
  if (typeof rssi !== 'number' || !Number.isFinite(rssi) || rssi < -200 || rssi > 50) return null;
  const at = atKey ? entry[atKey] : undefined;
  return { id: tagIdOf(id), rssi, ...(typeof at === 'string' && at.length <= 40 ? { at } : {}) };
}

/** A list of sightings bounded as ours is: more than MAX_SIGHTING_TAGS is refused whole. */
export const withinBound = (tags: SightingTag[]): SightingTag[] | null => (tags.length <= MAX_SIGHTING_TAGS ? tags : null);

export { isObject };
