// Sightings to fixes, for MQTT and HTTP alike (decision 067): the reader's secret checked, each tag of a registered
// tracker placed at the reader (its radius as the accuracy) unless a stronger reader saw it within 2 s, and the fixes
// handed to the tracking service as a gateway's batch is. Refusals are counted and store nothing; a sighting of a
// tracker that is not a tag (a phone) is one (decision 092). Every message format (formats/) ends here, counted under
// its own protocol name.
import type { ReaderFormat, SightingsResult, SightingTag } from '@prison/shared';
import { HttpError } from '../../lib/http-errors';
import { checkFix, FixRefused, parseFixTime, type Fix } from '../../tracking/fix';
import type { FixProtocol, FixSink } from '../../tracking/ports';
import { submitFrom } from '../../tracking/protocol-metrics';
import type { ReaderPlace, ReaderRegistry } from './reader-registry';
import type { SightingResolver } from './sighting-resolver';

/** One answer to an unknown reader id and a wrong secret, as for devices (decision 038). */
export const READER_REFUSED_MESSAGE = 'Unknown reader or wrong secret';

export type ReaderProtocol = Extract<FixProtocol, 'mqtt' | 'reader' | `${ReaderFormat}_${'mqtt' | 'http'}`>;

/** The /metrics name of a format over a transport: ours keeps its first names, `mqtt` and `reader`. */
export function readerProtocol(format: ReaderFormat, transport: 'mqtt' | 'http'): ReaderProtocol {
  if (format === 'prison') return transport === 'mqtt' ? 'mqtt' : 'reader';
  return `${format}_${transport}`;
}

export class SightingIntake {
  constructor(
    private readonly tracking: FixSink,
    private readonly registry: ReaderRegistry,
    private readonly resolver: SightingResolver,
  ) {}

  /** A message refused before anything is read from it (malformed, too big): counted, for a known reader too. */
  refuse(protocol: ReaderProtocol, readerId: string | null, tags: number): void {
    this.tracking.metrics.fixesReceived(protocol, Math.max(1, tags));
    this.tracking.metrics.fixesRefused(protocol, Math.max(1, tags));
    if (readerId) this.registry.refused(readerId);
  }

  /** Stores the sightings of one message; throws a 401 for an unknown reader or a wrong secret. */
  async take(protocol: ReaderProtocol, readerId: string, secret: string, tags: SightingTag[], now = new Date()): Promise<SightingsResult> {
    const reader = this.registry.authenticate(readerId, secret);
    if (!reader) {
      this.refuse(protocol, readerId, tags.length);
      throw new HttpError(401, READER_REFUSED_MESSAGE);
    }
    return this.place(protocol, reader, tags, now);
  }

  /** Stores the sightings of a reader already authenticated (by its secret, or by the broker for a gateway format). */
  async place(protocol: ReaderProtocol, reader: ReaderPlace, tags: SightingTag[], now = new Date()): Promise<SightingsResult> {
    this.tracking.metrics.fixesReceived(protocol, tags.length);
    this.registry.heard(reader.id, now);
    const fixes: Fix[] = [];
    let ignored = 0;
    let refused = 0;
    let notTags = 0;
    // One fix per tag and instant in a message: a tag listed twice is one sighting.
    const placed = new Set<string>();
    for (const tag of tags) {
      const device = this.tracking.registry.get(tag.id);
      // A phone reports its own position: a reader that claims to see one is misconfigured or its secret is misused,
      // and moving the phone would end the breach its own fixes raised.
      if (device && device.kind !== 'tag') {
        notTags++;
        continue;
      }
      let fix: Fix;
      try {
        const recordedAt = parseFixTime(tag.at, now);
        fix = { deviceId: tag.id, latitude: reader.latitude, longitude: reader.longitude, recordedAt, accuracy: reader.radiusM, fromReader: true };
        fix = checkFix(fix, { now, maxFutureSeconds: this.tracking.maxFutureSeconds }).fix;
      } catch (error) {
        if (!(error instanceof FixRefused)) throw error;
        refused++;
        continue;
      }
      const key = `${tag.id}\n${fix.recordedAt.getTime()}`;
      // A tag no tracker has is somebody else's (a visitor's card): not ours to store.
      if (placed.has(key) || !device || !this.resolver.accept(tag.id, reader.id, tag.rssi, fix.recordedAt.getTime())) {
        ignored++;
        continue;
      }
      placed.add(key);
      fixes.push(fix);
    }
    if (refused + notTags > 0) {
      this.tracking.metrics.fixesRefused(protocol, refused + notTags);
      this.registry.refused(reader.id);
    }
    const outcomes = fixes.length ? await submitFrom(this.tracking, protocol, fixes) : [];
    const stored = outcomes.filter((o) => o === 'stored').length;
    const notStored = outcomes.length - stored;
    const failed = outcomes.filter((o) => o === 'refused' || o === 'invalid').length;
    if (failed > 0) this.tracking.metrics.fixesRefused(protocol, failed);
    return { stored, ignored: ignored + refused + notTags + notStored };
  }
}
