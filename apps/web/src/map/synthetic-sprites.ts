// Sprites made without a canvas (Node has none), for the pixel writers' tests and bench/map/writer.ts: a dot like the layer's.

export const SIZE = 18;

/** A dot like the layer's: a coloured disc, a white ring, an anti-aliased outer edge (RGBA, not premultiplied). */
export function dotSprite(r: number, g: number, b: number): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const distance = Math.hypot(x + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2);
      const alpha = Math.round(Math.max(0, Math.min(1, 8.5 - distance)) * 255);
      const ring = distance > 6;
      rgba.set([ring ? 255 : r, ring ? 255 : g, ring ? 255 : b, alpha], (y * SIZE + x) * 4);
    }
  }
  return rgba;
}
