// Which reader a tag is at when several see it: within 2 s the strongest signal wins (decision 067). Pure and in
// memory; a sighting is answered at once, so a fix is never held back waiting for a stronger one.
import { SIGHTING_WINDOW_MS } from '@prison/shared';

interface Accepted {
  readerId: string;
  rssi: number;
  atMs: number;
}

/** Tags not seen for this long are forgotten (the memory stays bounded by the tags seen lately). */
const FORGET_AFTER_MS = 60_000;

export class SightingResolver {
  private readonly lastByTag = new Map<string, Accepted>();
  private sweptAt = 0;

  /**
   * Whether this sighting places the tag: no, when another reader saw it with a stronger signal within the window
   * (either side of this instant, so late messages are judged the same way).
   */
  accept(tagId: string, readerId: string, rssi: number, atMs: number): boolean {
    const last = this.lastByTag.get(tagId);
    if (last && last.readerId !== readerId && Math.abs(atMs - last.atMs) < SIGHTING_WINDOW_MS && rssi < last.rssi) return false;
    if (!last || atMs >= last.atMs || last.readerId !== readerId) this.lastByTag.set(tagId, { readerId, rssi, atMs });
    this.sweep(atMs);
    return true;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < FORGET_AFTER_MS) return;
    this.sweptAt = nowMs;
    for (const [tag, last] of this.lastByTag) if (nowMs - last.atMs > FORGET_AFTER_MS) this.lastByTag.delete(tag);
  }
}
