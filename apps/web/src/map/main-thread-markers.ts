// The markers drawn on the main thread, when no pixel worker draws them (under the pixel threshold, or where a worker
// cannot draw): one drawImage per marker, or above the threshold the sprites' pixels written into one ImageData and
// put at once (in software rendering one drawImage costs about 5 µs); the escort lines behind them.
import { strokeEscortLines } from './escort-lines';
import type { MarkerSprites } from './marker-sprites';
import { FrameWriter } from './frame-writer';

export class MainThreadMarkers {
  private frameImage: ImageData | null = null;
  /** The frame's pixels as 32-bit words (a view of frameImage). */
  private frameWords: Int32Array | null = null;
  private writer = new FrameWriter();

  /** Draws `count` placed markers (FramePlacement.markers) and `linkCount` escort lines on a cleared canvas. */
  draw(
    ctx: CanvasRenderingContext2D,
    sprites: MarkerSprites,
    markers: Int32Array,
    count: number,
    links: Float32Array,
    linkCount: number,
    writePixels: boolean,
  ): void {
    const { width, height } = ctx.canvas;
    if (writePixels) {
      if (!this.frameImage || this.frameImage.width !== width || this.frameImage.height !== height) {
        this.frameImage = ctx.createImageData(width, height);
        this.frameWords = new Int32Array(this.frameImage.data.buffer);
      }
      this.writer.draw(this.frameWords!, width, height, sprites.list, markers, count);
      ctx.putImageData(this.frameImage, 0, 0);
    } else {
      ctx.clearRect(0, 0, width, height);
      for (let i = 0; i < count * 3; i += 3) ctx.drawImage(sprites.all[markers[i + 2]!]!.canvas, markers[i]!, markers[i + 1]!);
    }
    strokeEscortLines(ctx, links, sprites.ratio, linkCount);
  }
}
