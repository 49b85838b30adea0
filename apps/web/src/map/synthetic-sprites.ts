// Sprites made without a canvas (Node has none), for the pixel writers' tests and bench/map/writer.ts: a dot like the layer's.

export const SIZE = 18;

/**
 * A dot like the layer's: a coloured disc, a white ring, an anti-aliased outer edge (RGBA, not premultiplied),
 * `size` pixels square (the layer's sprites are larger at higher pixel ratios).
 */
export function dotSprite(r: number, g: number, b: number, size = SIZE): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(size * size * 4);
  const scale = size / SIZE;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2);
      const alpha = Math.round(Math.max(0, Math.min(1, 8.5 * scale - distance)) * 255);
      const ring = distance > 6 * scale;
      rgba.set([ring ? 255 : r, ring ? 255 : g, ring ? 255 : b, alpha], (y * size + x) * 4);
    }
  }
  return rgba;
}
