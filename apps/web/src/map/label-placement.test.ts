import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placeLabels, type LabelCandidate } from './label-placement';

// Every label 40 x 16 canvas pixels (the size function is the label bitmap's in the layer).
const size = () => ({ width: 40, height: 16 });
const candidate = (x: number, y: number, text: string, priority = 4): LabelCandidate => ({
  rightX: x + 8,
  leftX: x - 8,
  y,
  text,
  priority,
});
const overlap = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  a.x < b.x + 40 && b.x < a.x + 40 && a.y < b.y + 16 && b.y < a.y + 16;

describe('placeLabels', () => {
  it('never places two labels that overlap, whatever the markers (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ x: fc.integer({ min: -50, max: 600 }), y: fc.integer({ min: -20, max: 400 }), p: fc.nat(5) }),
          { maxLength: 200 },
        ),
        (markers) => {
          const placed = placeLabels(
            markers.map((m, i) => candidate(m.x, m.y, `L${i}`, m.p)),
            size,
            300,
          );
          for (let i = 0; i < placed.length; i++)
            for (let j = i + 1; j < placed.length; j++) expect(overlap(placed[i]!, placed[j]!)).toBe(false);
        },
      ),
    );
  });

  it('places every label when none collide, to the right of its marker', () => {
    const placed = placeLabels([candidate(0, 0, 'a'), candidate(0, 100, 'b'), candidate(200, 0, 'c')], size, 300);
    expect(placed).toEqual([
      { x: 8, y: -8, text: 'a' },
      { x: 8, y: 92, text: 'b' },
      { x: 208, y: -8, text: 'c' },
    ]);
  });

  it('gives the place to the higher priority (Critical, selected) whatever the drawing order', () => {
    const quiet = candidate(0, 0, 'quiet', 4);
    const critical = candidate(0, 2, 'critical', 1);
    for (const order of [
      [quiet, critical],
      [critical, quiet],
    ]) {
      const placed = placeLabels(order, size, 300);
      expect(placed[0]!.text).toBe('critical');
    }
  });

  it('moves a label to the left of its marker when the right is taken, and skips it when both are', () => {
    const placed = placeLabels(
      [candidate(0, 0, 'first', 0), candidate(0, 4, 'second', 1), candidate(0, 6, 'third', 2)],
      size,
      300,
    );
    expect(placed.map((label) => [label.text, label.x])).toEqual([
      ['first', 8],
      ['second', -48],
    ]);
  });

  it('stops at the cap', () => {
    const many = Array.from({ length: 50 }, (_, i) => candidate(0, i * 100, `L${i}`));
    expect(placeLabels(many, size, 10)).toHaveLength(10);
  });
});
