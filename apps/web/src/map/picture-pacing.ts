// When the pixel worker writes a picture of its markers and when it shows it (decision 082). A picture is written as
// soon as the last one is shown, in a task of its own, and shown at the next animation frame. Written at the start of
// a frame instead, a picture that takes a little more than a frame would wait for the frame after its end: two frames
// each. Written ahead, it is shown at the first frame after it is ready, and at most one picture is shown per frame.
// No DOM here, so it is tested in Node.

export interface PacingHooks {
  /**
   * Writes a picture of the scene as it is now, to be shown later; returns whether markers still glide (another
   * picture is due), or null when nothing can be written yet (no canvas, view or sprites).
   */
  write(): boolean | null;
  /** Shows the picture last written. */
  show(): void;
  /** Calls back at the next animation frame. */
  nextFrame(callback: () => void): void;
  /** Calls back in a task of its own, at once. */
  soon(callback: () => void): void;
}

export class PicturePacing {
  /** The scene changed, or markers still glide: another picture is due. */
  private due = false;
  /** A picture is written and waits for an animation frame to be shown. */
  private written = false;
  private writeQueued = false;
  private frameRequested = false;

  constructor(private readonly hooks: PacingHooks) {}

  /** Something in the scene changed: a picture is due. */
  changed(): void {
    this.due = true;
    this.queueWrite();
  }

  private queueWrite(): void {
    if (this.writeQueued) return;
    this.writeQueued = true;
    this.hooks.soon(() => this.write());
  }

  private write(): void {
    this.writeQueued = false;
    // While a written picture waits to be shown, the next is written after it (the two share their pixels).
    if (!this.due || this.written) return;
    const gliding = this.hooks.write();
    if (gliding === null) return;
    this.due = gliding;
    this.written = true;
    if (!this.frameRequested) {
      this.frameRequested = true;
      this.hooks.nextFrame(() => this.show());
    }
  }

  private show(): void {
    this.frameRequested = false;
    if (this.written) this.hooks.show();
    this.written = false;
    if (this.due) this.queueWrite();
  }
}
