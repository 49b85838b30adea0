import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredGeofence } from '@prison/shared';
import { GeofenceEngine, type EngineTransition } from './geofence-engine';
import { EDGE, INSIDE, compileGeofence, containmentOf } from './geofence-index';
import { circleFence, east, perimeterCorners, polygonFence } from './geofence-test-shapes';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const summary = (transitions: EngineTransition[]) => transitions.map((t) => `${t.kind} ${t.geofence.name}`);

const workshop = circleFence({ geofence_id: 'workshop', name: 'Workshop', radius: 100 });
const perimeter = polygonFence(perimeterCorners, { geofence_id: 'perimeter', name: 'Perimeter' });
const inPerimeter = east(500);
const outside = east(2000);

describe('geofence engine: enter and leave', () => {
  it('raises a Positive geofence on entry and ends it on leaving', () => {
    const engine = new GeofenceEngine([workshop]);
    expect(engine.evaluate('d1', ...east(500), at(0))).toEqual([]);
    const entered = engine.evaluate('d1', ...east(50), at(1));
    expect(summary(entered)).toEqual(['start Workshop']);
    expect(entered[0]!.at).toEqual(at(1));
    expect(entered[0]!.geofence).toBe(workshop);
    expect(engine.evaluate('d1', ...east(60), at(2))).toEqual([]); // still inside: no repeat
    expect(engine.activeViolations('d1')).toEqual([workshop]);
    const left = engine.evaluate('d1', ...east(150), at(3));
    expect(summary(left)).toEqual(['end Workshop']);
    expect(left[0]!.at).toEqual(at(3));
    expect(engine.evaluate('d1', ...east(160), at(4))).toEqual([]);
    expect(engine.activeViolations('d1')).toEqual([]);
  });

  it('raises a Negative geofence on leaving and ends it on return', () => {
    const engine = new GeofenceEngine([perimeter]);
    expect(engine.evaluate('d1', ...inPerimeter, at(0))).toEqual([]);
    expect(engine.evaluate('d1', ...east(900), at(1))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...outside, at(2)))).toEqual(['start Perimeter']);
    expect(engine.evaluate('d1', ...east(3000), at(3))).toEqual([]);
    expect(engine.activeViolations('d1')).toEqual([perimeter]);
    expect(summary(engine.evaluate('d1', ...inPerimeter, at(4)))).toEqual(['end Perimeter']);
    expect(engine.activeViolations('d1')).toEqual([]);
  });

  it('raises a Negative geofence at once for a device first seen outside it', () => {
    const engine = new GeofenceEngine([perimeter, workshop]);
    expect(summary(engine.evaluate('d1', ...outside, at(0)))).toEqual(['start Perimeter']);
    expect(engine.evaluate('d1', ...outside, at(1))).toEqual([]);
  });

  it('counts a point on the edge as inside', () => {
    const engine = new GeofenceEngine([workshop, perimeter]);
    expect(summary(engine.evaluate('d1', ...east(100), at(0)))).toEqual(['start Workshop']);
    expect(engine.evaluate('d2', 0.01, 0.005, at(0))).toEqual([]); // on the perimeter's northern side
  });

  it('keeps devices apart and handles several geofences at once', () => {
    const yard = circleFence({ geofence_id: 'yard', name: 'Yard', radius: 300, alert_type: 'Informational' });
    const engine = new GeofenceEngine([workshop, yard, perimeter]);
    expect(summary(engine.evaluate('a', ...east(50), at(0))).sort()).toEqual(['start Workshop', 'start Yard']);
    expect(summary(engine.evaluate('b', ...east(200), at(0)))).toEqual(['start Yard']);
    expect(summary(engine.evaluate('a', ...outside, at(1))).sort()).toEqual([
      'end Workshop',
      'end Yard',
      'start Perimeter',
    ]);
    expect(engine.evaluate('b', ...east(250), at(1))).toEqual([]);
  });
});

describe('geofence engine: dwell', () => {
  const slowWorkshop = { ...workshop, dwell_seconds: 60 };

  it('raises nothing before the dwell and once after it, dated when the dwell elapsed', () => {
    const engine = new GeofenceEngine([slowWorkshop]);
    expect(engine.evaluate('d1', ...east(50), at(0))).toEqual([]);
    expect(engine.evaluate('d1', ...east(40), at(30))).toEqual([]);
    const started = engine.evaluate('d1', ...east(45), at(61));
    expect(summary(started)).toEqual(['start Workshop']);
    expect(started[0]!.at).toEqual(at(60));
    expect(engine.evaluate('d1', ...east(45), at(90))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(400), at(100)))).toEqual(['end Workshop']);
  });

  it('raises nothing when the device leaves before the dwell', () => {
    const engine = new GeofenceEngine([slowWorkshop]);
    expect(engine.evaluate('d1', ...east(50), at(0))).toEqual([]);
    expect(engine.evaluate('d1', ...east(400), at(30))).toEqual([]);
    expect(engine.tick(at(120))).toEqual([]);
    // Coming back starts the clock again.
    expect(engine.evaluate('d1', ...east(50), at(130))).toEqual([]);
    expect(engine.evaluate('d1', ...east(50), at(170))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(50), at(190)))).toEqual(['start Workshop']);
  });

  it('raises from the dwell timer when no fix arrives, once', () => {
    const engine = new GeofenceEngine([slowWorkshop, { ...perimeter, dwell_seconds: 30 }]);
    expect(engine.evaluate('d1', ...east(50), at(0))).toEqual([]);
    expect(engine.evaluate('d2', ...outside, at(10))).toEqual([]);
    expect(engine.tick(at(39))).toEqual([]);
    const perimeterTick = engine.tick(at(40));
    expect(perimeterTick.map((r) => [r.deviceId, summary(r.transitions)])).toEqual([['d2', ['start Perimeter']]]);
    expect(perimeterTick[0]!.transitions[0]!.at).toEqual(at(40));
    const workshopTick = engine.tick(at(75));
    expect(workshopTick.map((r) => [r.deviceId, summary(r.transitions)])).toEqual([['d1', ['start Workshop']]]);
    expect(engine.tick(at(200))).toEqual([]);
    expect(engine.evaluate('d1', ...east(50), at(201))).toEqual([]);
    expect(engine.evaluate('d2', ...outside, at(201))).toEqual([]);
    expect(summary(engine.evaluate('d2', ...inPerimeter, at(202)))).toEqual(['end Perimeter']);
  });
});

describe('geofence engine: buffer', () => {
  it('does not flap when a device jitters across a circle edge inside the buffer', () => {
    const engine = new GeofenceEngine([{ ...workshop, buffer_meters: 10 }]);
    expect(engine.evaluate('d1', ...east(95), at(0))).toEqual([]); // edge with no history: benefit of the doubt
    expect(engine.evaluate('d1', ...east(105), at(1))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(80), at(2)))).toEqual(['start Workshop']);
    for (const [i, meters] of [105, 92, 108, 99, 101, 91].entries())
      expect(engine.evaluate('d1', ...east(meters), at(3 + i))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(120), at(20)))).toEqual(['end Workshop']);
    for (const [i, meters] of [95, 105, 92, 108].entries())
      expect(engine.evaluate('d1', ...east(meters), at(21 + i))).toEqual([]);
  });

  it('does not flap when a device jitters across a perimeter side inside the buffer', () => {
    const engine = new GeofenceEngine([{ ...perimeter, buffer_meters: 15 }]);
    const side = 0.01 * 111_195; // the eastern side, in metres from (0, 0)
    expect(engine.evaluate('d1', ...east(side + 5), at(0))).toEqual([]); // edge, first fix: not violating
    for (const [i, offset] of [-8, 6, -3, 12, -14, 2].entries())
      expect(engine.evaluate('d1', ...east(side + offset), at(1 + i))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(side + 40), at(10)))).toEqual(['start Perimeter']);
    for (const [i, offset] of [8, -6, 3, -12].entries())
      expect(engine.evaluate('d1', ...east(side + offset), at(11 + i))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(side - 40), at(20)))).toEqual(['end Perimeter']);
  });
});

describe('geofence engine: duplicate and out-of-order fixes', () => {
  it('ignores a repeated fix and an older fix', () => {
    const engine = new GeofenceEngine([workshop, perimeter]);
    expect(summary(engine.evaluate('d1', ...east(50), at(10)))).toEqual(['start Workshop']);
    expect(engine.evaluate('d1', ...east(50), at(10))).toEqual([]);
    // An older fix outside changes nothing: the next fix inside raises nothing.
    expect(engine.evaluate('d1', ...outside, at(5))).toEqual([]);
    expect(engine.evaluate('d1', ...east(50), at(11))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(300), at(12)))).toEqual(['end Workshop']);
    expect(engine.evaluate('d1', ...east(300), at(12))).toEqual([]);
    expect(engine.evaluate('d1', ...east(50), at(11.5))).toEqual([]);
    expect(engine.evaluate('d1', ...east(300), at(13))).toEqual([]);
  });
});

describe('geofence engine: restored states', () => {
  it('does not raise a running violation again after a restart', () => {
    const engine = new GeofenceEngine(
      [workshop, perimeter],
      [
        { deviceId: 'in-workshop', geofenceId: 'workshop', violating: true, since: at(-100) },
        { deviceId: 'escaped', geofenceId: 'perimeter', violating: true, since: at(-100) },
        { deviceId: 'gone', geofenceId: 'removed-geofence', violating: true, since: at(-100) },
      ],
    );
    expect(engine.evaluate('in-workshop', ...east(50), at(0))).toEqual([]);
    expect(summary(engine.evaluate('in-workshop', ...east(300), at(1)))).toEqual(['end Workshop']);
    expect(engine.evaluate('escaped', ...outside, at(0))).toEqual([]);
    expect(engine.activeViolations('escaped')).toEqual([perimeter]);
    expect(summary(engine.evaluate('escaped', ...inPerimeter, at(1)))).toEqual(['end Perimeter']);
    // A device with no stored violation that is now outside the perimeter is raised (it left while the server was down).
    expect(summary(engine.evaluate('other', ...outside, at(0)))).toEqual(['start Perimeter']);
  });

  it('ends a restored violation the device has left meanwhile', () => {
    const engine = new GeofenceEngine(
      [workshop],
      [{ deviceId: 'd1', geofenceId: 'workshop', violating: true, since: at(-100) }],
    );
    expect(summary(engine.evaluate('d1', ...east(500), at(0)))).toEqual(['end Workshop']);
  });
});

describe('geofence engine: geofence changes and forgotten devices', () => {
  it('keeps states across a rename, drops removed geofences and raises a new Negative geofence', () => {
    const engine = new GeofenceEngine([workshop]);
    expect(summary(engine.evaluate('d1', ...east(50), at(0)))).toEqual(['start Workshop']);
    engine.setGeofences([{ ...workshop, name: 'Main workshop', alert_type: 'Critical' }]);
    expect(engine.evaluate('d1', ...east(50), at(1))).toEqual([]);
    expect(engine.geofences().map((g) => g.name)).toEqual(['Main workshop']);
    // A new Negative geofence the device is outside of: raised on the next fix.
    engine.setGeofences([
      { ...workshop, name: 'Main workshop' },
      polygonFence(
        perimeterCorners.map(([a, b]) => [a + 1, b] as [number, number]),
        { geofence_id: 'far', name: 'Far' },
      ),
    ]);
    expect(summary(engine.evaluate('d1', ...east(50), at(2)))).toEqual(['start Far']);
    // Removing the workshop drops its state without an end; entering a new one with the same id raises again.
    engine.setGeofences([]);
    expect(engine.evaluate('d1', ...east(50), at(3))).toEqual([]);
    engine.setGeofences([workshop]);
    expect(summary(engine.evaluate('d1', ...east(50), at(4)))).toEqual(['start Workshop']);
  });

  it('treats a geofence whose shape changed as a new zone', () => {
    const engine = new GeofenceEngine([workshop]);
    expect(summary(engine.evaluate('d1', ...east(50), at(0)))).toEqual(['start Workshop']);
    engine.setGeofences([{ ...workshop, radius: 200 }]);
    expect(summary(engine.evaluate('d1', ...east(50), at(1)))).toEqual(['start Workshop']);
  });

  it('puts a device back as saved, so fixes that were not stored raise their alerts when written again', () => {
    const engine = new GeofenceEngine([workshop, perimeter]);
    expect(engine.evaluate('d1', ...inPerimeter, at(0))).toEqual([]);
    const saved = engine.saveDevice('d1');
    expect(summary(engine.evaluate('d1', ...east(50), at(1)))).toEqual(['start Workshop']);
    engine.restoreDevice('d1', saved);
    expect(summary(engine.evaluate('d1', ...east(50), at(1)))).toEqual(['start Workshop']);
    // A device never seen before is forgotten again; a geofence reshaped meanwhile loses its saved state.
    engine.restoreDevice('d2', engine.saveDevice('d2'));
    expect(engine.stats().devices).toBe(1);
    const inside = engine.saveDevice('d1');
    engine.setGeofences([{ ...workshop, radius: 200 }, perimeter]);
    engine.restoreDevice('d1', inside);
    expect(engine.activeViolations('d1')).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(60), at(2)))).toEqual(['start Workshop']);
  });

  it('forgets a device entirely', () => {
    const engine = new GeofenceEngine([perimeter]);
    expect(summary(engine.evaluate('d1', ...outside, at(0)))).toEqual(['start Perimeter']);
    engine.forgetDevice('d1');
    expect(summary(engine.evaluate('d1', ...outside, at(1)))).toEqual(['start Perimeter']);
  });
});

describe('geofence engine: sparse states', () => {
  it('keeps no state for the many Negative geofences a device is outside of, once alerted', () => {
    // 500 small Negative zones far away and one Positive workshop; the device is outside all the zones.
    const zones = Array.from({ length: 500 }, (_, i) =>
      circleFence({ geofence_id: `zone-${i}`, type: 'Negative', center_lat: 1 + i * 0.01, center_lng: 1, radius: 50 }),
    );
    const engine = new GeofenceEngine([...zones, workshop]);
    expect(engine.evaluate('d1', ...east(500), at(0))).toHaveLength(500); // each left zone is raised once
    expect(engine.stats()).toMatchObject({
      geofences: 501,
      negativeGeofences: 500,
      devices: 1,
      states: 0,
      pendingDevices: 0,
    });
    expect(engine.activeViolations('d1')).toHaveLength(500);
    expect(engine.evaluate('d1', ...east(50), at(1)).map((t) => t.geofence.name)).toEqual(['Workshop']);
    expect(engine.stats().states).toBe(1);
    // Entering one zone ends its violation; leaving it raises it again.
    expect(summary(engine.evaluate('d1', 1.05, 1, at(2))).sort()).toEqual(['end Workshop', 'end zone-5']);
    expect(summary(engine.evaluate('d1', ...east(500), at(3)))).toEqual(['start zone-5']);
    expect(engine.stats().states).toBe(0);
  });
});

/**
 * A plain reference model of the rules: one state per device and geofence, every geofence examined on every fix.
 * The engine (sparse states, spatial index) must give the same transitions.
 */
class ReferenceEngine {
  private states = new Map<string, { inside: boolean; since: number; started: boolean }>();
  private last = new Map<string, number>();
  constructor(private fences: StoredGeofence[]) {}

  evaluate(device: string, lat: number, lng: number, time: number): string[] {
    if (!((this.last.get(device) ?? -Infinity) < time)) return [];
    this.last.set(device, time);
    const out: string[] = [];
    this.fences.forEach((geofence, slot) => {
      const code = containmentOf(compileGeofence(geofence, slot), lat, lng);
      const key = `${device}|${geofence.geofence_id}`;
      const previous = this.states.get(key);
      const positive = geofence.type === 'Positive';
      const inside = code === INSIDE ? true : code === EDGE ? (previous ? previous.inside : !positive) : false;
      const violating = positive ? inside : !inside;
      const wasViolating = previous ? (positive ? previous.inside : !previous.inside) : false;
      const state = {
        inside,
        since: violating && wasViolating ? previous!.since : time,
        started: previous?.started ?? false,
      };
      if (violating && !state.started && time - state.since >= geofence.dwell_seconds * 1000) {
        state.started = true;
        out.push(`${device} start ${geofence.geofence_id} ${state.since + geofence.dwell_seconds * 1000}`);
      } else if (!violating && state.started) {
        state.started = false;
        out.push(`${device} end ${geofence.geofence_id} ${time}`);
      }
      this.states.set(key, state);
    });
    return out.sort();
  }

  tick(now: number): string[] {
    const out: string[] = [];
    for (const [key, state] of this.states) {
      const [device, id] = key.split('|') as [string, string];
      const geofence = this.fences.find((g) => g.geofence_id === id)!;
      const violating = geofence.type === 'Positive' ? state.inside : !state.inside;
      if (violating && !state.started && now - state.since >= geofence.dwell_seconds * 1000) {
        state.started = true;
        out.push(`${device} start ${id} ${state.since + geofence.dwell_seconds * 1000}`);
      }
    }
    return out.sort();
  }
}

describe('geofence engine: agrees with a plain reference model (property)', () => {
  const fenceArb = fc.record({
    circle: fc.boolean(),
    positive: fc.boolean(),
    x: fc.integer({ min: -400, max: 400 }),
    y: fc.integer({ min: -400, max: 400 }),
    size: fc.integer({ min: 50, max: 400 }),
    dwell: fc.constantFrom(0, 0, 5, 20),
    buffer: fc.constantFrom(0, 0, 10, 30),
  });
  const stepArb = fc.oneof(
    fc.record({
      kind: fc.constant('fix' as const),
      device: fc.constantFrom('a', 'b', 'c'),
      x: fc.integer({ min: -900, max: 900 }),
      y: fc.integer({ min: -900, max: 900 }),
      dt: fc.integer({ min: -2, max: 15 }),
    }),
    fc.record({ kind: fc.constant('tick' as const), dt: fc.integer({ min: 0, max: 15 }) }),
  );
  const m = 1 / 111_195; // degrees per metre near (0, 0)

  it('gives the same transitions for random geofences and random walks', () => {
    fc.assert(
      fc.property(
        fc.array(fenceArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { maxLength: 80 }),
        (specs, steps) => {
          const fences = specs.map((s, i): StoredGeofence => {
            const common = {
              geofence_id: `g${i}`,
              type: s.positive ? 'Positive' : 'Negative',
              dwell_seconds: s.dwell,
              buffer_meters: s.buffer,
            } as const;
            if (s.circle) return circleFence({ ...common, center_lat: s.y * m, center_lng: s.x * m, radius: s.size });
            const [y, x, h] = [s.y * m, s.x * m, s.size * m];
            // A concave L shape.
            return polygonFence(
              [
                [y, x],
                [y + h, x],
                [y + h, x + h / 2],
                [y + h / 2, x + h / 2],
                [y + h / 2, x + h],
                [y, x + h],
              ],
              common,
            );
          });
          const engine = new GeofenceEngine(fences);
          const reference = new ReferenceEngine(fences);
          let clock = T0;
          const deviceClock = new Map<string, number>();
          for (const step of steps) {
            if (step.kind === 'tick') {
              clock += step.dt * 1000;
              const got = engine
                .tick(new Date(clock))
                .flatMap((r) =>
                  r.transitions.map((t) => `${r.deviceId} ${t.kind} ${t.geofence.geofence_id} ${t.at.getTime()}`),
                )
                .sort();
              expect(got).toEqual(reference.tick(clock));
            } else {
              const time = Math.max(deviceClock.get(step.device) ?? clock, clock) + step.dt * 1000;
              deviceClock.set(step.device, Math.max(deviceClock.get(step.device) ?? 0, time));
              clock = Math.max(clock, time);
              const got = engine
                .evaluate(step.device, step.y * m, step.x * m, new Date(time))
                .map((t) => `${step.device} ${t.kind} ${t.geofence.geofence_id} ${t.at.getTime()}`)
                .sort();
              expect(got).toEqual(reference.evaluate(step.device, step.y * m, step.x * m, time));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('authorised zones (decision 099)', () => {
  it("an authorised prisoner's violation waits while the exemption holds and starts at the next fix or tick after it ends; others alarm", () => {
    const engine = new GeofenceEngine([workshop]);
    let authorised = true;
    engine.setZoneExemption((prisonerId, geofenceId) => authorised && prisonerId === 7 && geofenceId === 'workshop');
    const sent = { prisonerId: 7, block: null };
    expect(summary(engine.evaluate('d7', ...east(50), at(1), sent))).toEqual([]);
    expect(summary(engine.evaluate('d7', ...east(51), at(2), sent))).toEqual([]);
    expect(engine.tick(at(5))).toEqual([]);
    // Somebody nobody sent there alarms as usual.
    expect(summary(engine.evaluate('d8', ...east(50), at(2), { prisonerId: 8, block: null }))).toEqual(['start Workshop']);
    // Ended: the next tick starts his violation (he is still inside), and it ends when he leaves.
    authorised = false;
    expect(engine.tick(at(6)).map((r) => [r.deviceId, summary(r.transitions)])).toEqual([['d7', ['start Workshop']]]);
    expect(summary(engine.evaluate('d7', ...east(150), at(7), sent))).toEqual(['end Workshop']);
    // A new entry without authority alarms at its fix.
    expect(summary(engine.evaluate('d7', ...east(50), at(8), sent))).toEqual(['start Workshop']);
  });
});

describe('geofence engine: a fix less accurate than its distance to the boundary', () => {
  const NO_ONE = { prisonerId: null, block: null };

  it('does not flip a Positive geofence either way', () => {
    const engine = new GeofenceEngine([workshop]);
    expect(engine.evaluate('d1', ...east(500), at(0), NO_ONE, 10)).toEqual([]);
    // 20 m inside the 100 m circle with 30 m accuracy: maybe outside, stays outside.
    expect(engine.evaluate('d1', ...east(80), at(1), NO_ONE, 30)).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(80), at(2), NO_ONE, 10))).toEqual(['start Workshop']);
    // 20 m outside with 30 m accuracy: maybe inside, stays inside; far out with the same accuracy ends it.
    expect(engine.evaluate('d1', ...east(120), at(3), NO_ONE, 30)).toEqual([]);
    expect(summary(engine.evaluate('d1', ...east(500), at(4), NO_ONE, 30))).toEqual(['end Workshop']);
  });

  it('does not raise a Negative geofence for a fix that may still be inside, even outside its box', () => {
    const engine = new GeofenceEngine([perimeter]);
    expect(engine.evaluate('d1', ...inPerimeter, at(0), NO_ONE, 5)).toEqual([]);
    // 1,000 m past the eastern side with 1,500 m accuracy: nothing; an accurate fix there starts the violation.
    expect(engine.evaluate('d1', ...outside, at(1), NO_ONE, 1_500)).toEqual([]);
    expect(engine.activeViolations('d1')).toEqual([]);
    expect(summary(engine.evaluate('d1', ...outside, at(2), NO_ONE, 5))).toEqual(['start Perimeter']);
  });
});
