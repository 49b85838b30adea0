// Escort lines (decision 035), drawn behind the markers already on a canvas ('destination-over'); shared by the
// layer's own canvas and its pixel worker's.

/** Strokes x1, y1, x2, y2 per line (canvas pixels). */
export function strokeEscortLines(
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  lines: Float32Array,
  ratio: number,
  count = lines.length / 4,
): void {
  if (count === 0) return;
  ctx.save();
  ctx.globalCompositeOperation = 'destination-over';
  ctx.lineWidth = 3 * ratio;
  ctx.strokeStyle = '#1d4ed8';
  ctx.setLineDash([6 * ratio, 4 * ratio]);
  ctx.beginPath();
  for (let i = 0; i < count * 4; i += 4) {
    ctx.moveTo(lines[i]!, lines[i + 1]!);
    ctx.lineTo(lines[i + 2]!, lines[i + 3]!);
  }
  ctx.stroke();
  ctx.restore();
}
