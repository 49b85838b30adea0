import { describe, expect, it } from 'vitest';
import { destinationPoint } from '@prison/shared';
import { KeepApartMonitor, keepApartAlertMessage, type MonitoredPosition } from './keep-apart-monitor';

const BASE: [number, number] = [51.5, -0.12];
const T0 = Date.parse('2026-01-01T10:00:00Z');

function at(prisonerId: number, metresEast: number, second: number): MonitoredPosition {
  const [lat, lng] = destinationPoint(BASE[0], BASE[1], metresEast, 90);
  return { prisonerId, deviceId: `d${prisonerId}`, name: `P${prisonerId}`, lat, lng, at: new Date(T0 + second * 1000) };
}

const monitor = () => {
  const m = new KeepApartMonitor({ metres: 15, hysteresisMetres: 5, maxAgeMs: 120_000 });
  m.setPairs([{ id: 7, a: 1, b: 2 }]);
  return m;
};

describe('keep-apart meetings', () => {
  it('starts a meeting within the distance, once, and ends it only beyond distance plus hysteresis', () => {
    const m = monitor();
    expect(m.update(at(1, 0, 0))).toEqual([]);
    expect(m.update(at(2, 30, 1))).toEqual([]); // 30 m
    const started = m.update(at(2, 14.9, 2)); // 14.9 m: within
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ pairId: 7, mover: { prisonerId: 2 }, other: { prisonerId: 1 } });
    expect(keepApartAlertMessage(started[0]!)).toBe('P2 and P1 must be kept apart and are 15 m from each other');
    // Jitter around the threshold, up to 20 m: the same meeting.
    for (const [i, d] of [16, 14, 19, 19.9, 12].entries()) expect(m.update(at(2, d, 3 + i))).toEqual([]);
    // The other prisoner moving counts too.
    expect(m.update(at(1, -0.5, 9))).toEqual([]);
    expect(m.update(at(2, 21, 10))).toEqual([]); // 21.5 m: apart, the meeting ends
    expect(m.update(at(2, 18, 11))).toEqual([]); // 18.5 m: not within 15
    expect(m.update(at(1, 4, 12))).toHaveLength(1); // 14 m, moved by the other one: a new meeting
  });

  it('never compares with a stale position, and forgets a silent tracker', () => {
    const m = monitor();
    m.update(at(1, 0, 0));
    expect(m.update(at(2, 5, 121))).toEqual([]); // the partner's fix is 121 s old
    expect(m.update(at(1, 0, 122))).toHaveLength(1);
    m.forget(2);
    expect(m.update(at(1, 1, 123))).toEqual([]); // no position for 2 any more
    expect(m.update(at(2, 3, 124))).toHaveLength(1); // back: a new meeting
  });

  it('ignores prisoners in no pair, keeps meetings across a reload of the same pairs, drops ended pairs', () => {
    const m = monitor();
    expect(m.update(at(3, 0, 0))).toEqual([]);
    m.update(at(1, 0, 0));
    expect(m.update(at(2, 1, 1))).toHaveLength(1);
    m.setPairs([{ id: 7, a: 1, b: 2 }, { id: 8, a: 2, b: 3 }]);
    expect(m.update(at(2, 2, 2))).toEqual([]); // pair 7 still meeting; 3 has no position remembered
    expect(m.update(at(3, 2, 3))).toHaveLength(1); // pair 8 meets
    m.setPairs([]);
    expect(m.update(at(2, 2, 4))).toEqual([]);
    expect(m.size).toBe(0);
  });

  it('puts a prisoner back as saved when a batch is not stored, so the retry raises the meeting again', () => {
    const m = monitor();
    m.update(at(1, 0, 0));
    const saved = m.save(2);
    expect(m.update(at(2, 1, 1))).toHaveLength(1);
    m.restore(2, saved);
    expect(m.update(at(2, 1, 1))).toHaveLength(1);
  });
});
