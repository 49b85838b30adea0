import { describe, expect, it } from 'vitest';
import { clusterAt, type DrawnMarker } from './marker-cluster';

const at = (id: string, x: number, y: number, level: DrawnMarker['level'] = 'none'): DrawnMarker => ({ id, x, y, level, name: id });

describe('clusterAt', () => {
  it('lists the markers under a click, worst alert first, then the nearest', () => {
    const markers = [at('far', 100, 100, 'critical'), at('near', 11, 10), at('centre', 10, 10), at('warn', 14, 12, 'warning'), at('crit', 5, 5, 'critical')];
    expect(clusterAt(markers, 10, 10, 12).map((m) => m.id)).toEqual(['crit', 'warn', 'centre', 'near']);
  });

  it('is one marker or none away from a crowd', () => {
    expect(clusterAt([at('a', 0, 0), at('b', 50, 0)], 0, 0, 12).map((m) => m.id)).toEqual(['a']);
    expect(clusterAt([at('a', 0, 0)], 40, 40, 12)).toEqual([]);
  });
});
