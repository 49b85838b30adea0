// RTLS positions to fixes: each registered tag's position placed on the ground through the site plan, with the
// accuracy the RTLS reports (or RTLS_ACCURACY_M), handed to the tracking service as one batch and counted as `rtls`.
// As for readers, a phone is refused (it reports its own position) and a tag no tracker has is ignored.
import type { Fix } from '../../tracking/fix';
import { checkFix, FixRefused, parseFixTime } from '../../tracking/fix';
import { submitFrom } from '../../tracking/protocol-metrics';
import type { FixSink } from '../../tracking/ports';
import type { PlanPlacement } from './plan-placement';
import type { PlanPosition } from './position-decoder';

export interface RtlsResult {
  stored: number;
  ignored: number;
  refused: number;
}

export class RtlsIntake {
  constructor(
    private readonly tracking: FixSink,
    private readonly accuracyM: number,
  ) {}

  /** A message refused whole (unreadable, not of the format, too big): counted as one. */
  refuse(count = 1): void {
    this.tracking.metrics.fixesReceived('rtls', count);
    this.tracking.metrics.fixesRefused('rtls', count);
  }

  async take(positions: PlanPosition[], withoutPosition: number, placement: PlanPlacement | null, now = new Date()): Promise<RtlsResult> {
    const received = positions.length + withoutPosition;
    this.tracking.metrics.fixesReceived('rtls', received);
    // With no placed plan there is nowhere to put a plan position.
    if (!placement) {
      this.tracking.metrics.fixesRefused('rtls', positions.length);
      return { stored: 0, ignored: withoutPosition, refused: positions.length };
    }
    const fixes: Fix[] = [];
    const placed = new Set<string>();
    let refused = 0;
    let ignored = withoutPosition;
    for (const position of positions) {
      const device = this.tracking.registry.get(position.tagId);
      if (device && device.kind !== 'tag') {
        refused++;
        continue;
      }
      if (!device) {
        ignored++;
        continue;
      }
      try {
        const { lat, lng } = placement.latLng(position.xM, position.yM);
        const fix: Fix = {
          deviceId: position.tagId,
          latitude: lat,
          longitude: lng,
          recordedAt: parseFixTime(position.at, now),
          accuracy: position.accuracyM ?? this.accuracyM,
          fromReader: true,
        };
        const checked = checkFix(fix, { now, maxFutureSeconds: this.tracking.maxFutureSeconds }).fix;
        const key = `${checked.deviceId}\n${checked.recordedAt.getTime()}`;
        if (placed.has(key)) {
          ignored++;
          continue;
        }
        placed.add(key);
        fixes.push(checked);
      } catch (error) {
        if (!(error instanceof FixRefused)) throw error;
        refused++;
      }
    }
    const outcomes = fixes.length ? await submitFrom(this.tracking, 'rtls', fixes) : [];
    const stored = outcomes.filter((o) => o === 'stored').length;
    const failed = outcomes.filter((o) => o === 'refused' || o === 'invalid').length;
    if (refused + failed > 0) this.tracking.metrics.fixesRefused('rtls', refused + failed);
    return { stored, ignored: ignored + outcomes.length - stored - failed, refused: refused + failed };
  }
}
