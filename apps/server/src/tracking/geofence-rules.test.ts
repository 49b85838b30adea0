// Geofences for some prisoners (decision 033) and at some times (decision 034): the engine's side.
import { describe, expect, it } from 'vitest';
import type { ScheduleWindow } from '@prison/shared';
import { GeofenceEngine, type EngineTransition } from './geofence-engine';
import { compileSchedule, activeInWeek, WeekClock, weekBoundaries } from './geofence-schedule';
import { ScopedGeofences, type Wearer } from './geofence-scopes';
import { compileGeofence, containmentOf, OUTSIDE } from './geofence-index';
import { circleFence, east, perimeterCorners, polygonFence } from './geofence-test-shapes';

const summary = (transitions: EngineTransition[]) => transitions.map((t) => `${t.kind} ${t.geofence.name}`);
const ticked = (result: { deviceId: string; transitions: EngineTransition[] }[]) =>
  result.flatMap((r) => r.transitions.map((t) => `${r.deviceId} ${t.kind} ${t.geofence.name} ${t.at.toISOString()}`));
const utc = (iso: string) => new Date(iso);
const inside = east(50);
const outside = east(2000);
const inPerimeter = east(500);
const LONDON = { timeZone: 'Europe/London' };

const weekdays: ScheduleWindow[] = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }];
const nightly: ScheduleWindow[] = [{ days: [1, 2, 3, 4, 5, 6, 7], start: '19:00', end: '07:00' }];

describe('weekly schedules in a time zone', () => {
  it('reads local wall time, across both daylight-saving changes', () => {
    const clock = new WeekClock('Europe/London');
    // 2026-03-29 (Sunday): 01:00 GMT becomes 02:00 BST. 2026-10-25 (Sunday): 02:00 BST becomes 01:00 GMT.
    expect(clock.offsetMinutes(Date.parse('2026-03-29T00:59:00Z'))).toBe(0);
    expect(clock.offsetMinutes(Date.parse('2026-03-29T01:00:00Z'))).toBe(60);
    expect(clock.offsetMinutes(Date.parse('2026-10-25T00:59:00Z'))).toBe(60);
    expect(clock.offsetMinutes(Date.parse('2026-10-25T01:00:00Z'))).toBe(0);
    // Monday 2026-01-05 09:00 GMT is minute 540 of the week; Sunday 23:59 the last.
    expect(clock.minuteOfWeek(Date.parse('2026-01-05T09:00:00Z'))).toBe(540);
    expect(clock.minuteOfWeek(Date.parse('2026-01-11T23:59:30Z'))).toBe(7 * 1440 - 1);
    expect(new WeekClock('America/New_York').minuteOfWeek(Date.parse('2026-01-05T14:00:00Z'))).toBe(540);
  });

  it('a window crossing midnight belongs to its start day, and Sunday night runs into Monday', () => {
    const sunday = compileSchedule([{ days: [7], start: '22:00', end: '06:00' }]);
    expect(activeInWeek(sunday, 6 * 1440 + 22 * 60)).toBe(true); // Sunday 22:00
    expect(activeInWeek(sunday, 5 * 60 + 59)).toBe(true); // Monday 05:59
    expect(activeInWeek(sunday, 6 * 60)).toBe(false); // Monday 06:00
    expect(activeInWeek(sunday, 22 * 60)).toBe(false); // Monday 22:00: not Monday's window
    const day = compileSchedule([{ days: [3], start: '00:00', end: '24:00' }]);
    expect(activeInWeek(day, 2 * 1440)).toBe(true);
    expect(activeInWeek(day, 3 * 1440)).toBe(false);
    // An end equal to the start: a whole day from the start.
    const fromNine = compileSchedule([{ days: [6], start: '09:00', end: '09:00' }]);
    expect(activeInWeek(fromNine, 5 * 1440 + 8 * 60 + 59)).toBe(false); // Saturday 08:59
    expect(activeInWeek(fromNine, 6 * 1440 + 8 * 60 + 59)).toBe(true); // Sunday 08:59
    expect(activeInWeek(fromNine, 6 * 1440 + 9 * 60)).toBe(false); // Sunday 09:00
  });

  it('finds the next edge, and the daylight-saving change itself when it comes first', () => {
    const clock = new WeekClock('Europe/London');
    const boundaries = weekBoundaries([compileSchedule(nightly)]);
    expect(new Date(clock.nextEdge(Date.parse('2026-01-05T12:00:00Z'), boundaries)).toISOString()).toBe('2026-01-05T19:00:00.000Z');
    // Saturday 28 March 19:00 GMT; the next boundary, Sunday 07:00 local, is 06:00Z, after the change at 01:00Z.
    expect(new Date(clock.nextEdge(Date.parse('2026-03-28T19:00:00Z'), boundaries)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(clock.nextEdge(Date.parse('2026-03-29T01:00:00Z'), boundaries)).toISOString()).toBe('2026-03-29T06:00:00.000Z');
  });
});

describe('geofence engine: schedules', () => {
  const workshop = circleFence({ geofence_id: 'workshop', name: 'Workshop', schedule: weekdays });

  it('raises nothing outside the window, and from its first minute inside it', () => {
    const engine = new GeofenceEngine([workshop], [], LONDON);
    // Monday 2026-01-05, GMT.
    expect(engine.evaluate('d1', ...inside, utc('2026-01-05T08:59:59Z'))).toEqual([]);
    const started = engine.evaluate('d1', ...inside, utc('2026-01-05T09:00:00Z'));
    expect(summary(started)).toEqual(['start Workshop']);
    expect(started[0]!.at).toEqual(utc('2026-01-05T09:00:00Z'));
    expect(engine.activeGeofences()).toEqual([workshop]);
    expect(engine.geofences()).toEqual([workshop]);
  });

  it('ends a violation open when the window closes, at the closing time, on the next tick', () => {
    const engine = new GeofenceEngine([workshop], [], LONDON);
    expect(summary(engine.evaluate('d1', ...inside, utc('2026-01-05T16:59:00Z')))).toEqual(['start Workshop']);
    expect(ticked(engine.tick(utc('2026-01-05T16:59:59Z')))).toEqual([]);
    expect(ticked(engine.tick(utc('2026-01-05T17:00:03Z')))).toEqual(['d1 end Workshop 2026-01-05T17:00:00.000Z']);
    expect(engine.activeViolations('d1')).toEqual([]);
    // Still inside after the window: nothing, and nothing again on the next tick.
    expect(engine.evaluate('d1', ...inside, utc('2026-01-05T17:01:00Z'))).toEqual([]);
    expect(ticked(engine.tick(utc('2026-01-05T17:02:00Z')))).toEqual([]);
    // Saturday: not a weekday. Next Monday 09:00 the zone is in force again and raises again.
    expect(engine.evaluate('d1', ...inside, utc('2026-01-10T10:00:00Z'))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...inside, utc('2026-01-12T09:00:00Z')))).toEqual(['start Workshop']);
  });

  it('a fix after the close but before the tick still finds the violation ended at the close', () => {
    const engine = new GeofenceEngine([workshop], [], LONDON);
    engine.evaluate('d1', ...inside, utc('2026-01-05T16:00:00Z'));
    expect(engine.evaluate('d1', ...inside, utc('2026-01-05T17:00:02Z'))).toEqual([]);
    expect(ticked(engine.tick(utc('2026-01-05T17:00:04Z')))).toEqual(['d1 end Workshop 2026-01-05T17:00:00.000Z']);
  });

  it('a Negative curfew zone across midnight: raised at 19:00 for a prisoner outside, ended at 07:00', () => {
    const curfew = polygonFence(perimeterCorners, { geofence_id: 'curfew', name: 'Curfew', schedule: nightly });
    const engine = new GeofenceEngine([curfew], [], LONDON);
    expect(engine.evaluate('out', ...outside, utc('2026-01-05T18:59:00Z'))).toEqual([]);
    expect(engine.evaluate('in', ...inPerimeter, utc('2026-01-05T18:59:00Z'))).toEqual([]);
    expect(summary(engine.evaluate('out', ...outside, utc('2026-01-05T19:00:00Z')))).toEqual(['start Curfew']);
    expect(engine.evaluate('in', ...inPerimeter, utc('2026-01-05T19:00:00Z'))).toEqual([]);
    // After midnight (Tuesday 02:00) the window still holds: leaving raises.
    expect(summary(engine.evaluate('in', ...outside, utc('2026-01-06T02:00:00Z')))).toEqual(['start Curfew']);
    expect(ticked(engine.tick(utc('2026-01-06T06:59:59Z')))).toEqual([]);
    expect(ticked(engine.tick(utc('2026-01-06T07:00:01Z'))).sort()).toEqual([
      'in end Curfew 2026-01-06T07:00:00.000Z',
      'out end Curfew 2026-01-06T07:00:00.000Z',
    ]);
    expect(engine.activeViolations('out')).toEqual([]);
    expect(engine.evaluate('out', ...outside, utc('2026-01-06T12:00:00Z'))).toEqual([]);
  });

  it('keeps local hours across the spring daylight-saving change (Europe/London, 29 March 2026)', () => {
    const curfew = polygonFence(perimeterCorners, { geofence_id: 'curfew', name: 'Curfew', schedule: nightly });
    const engine = new GeofenceEngine([curfew], [], LONDON);
    // Saturday 19:00 GMT = 19:00Z; Sunday 07:00 BST = 06:00Z: an 11-hour night.
    expect(engine.evaluate('d1', ...outside, utc('2026-03-28T18:59:00Z'))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...outside, utc('2026-03-28T19:00:00Z')))).toEqual(['start Curfew']);
    expect(ticked(engine.tick(utc('2026-03-29T01:00:05Z')))).toEqual([]); // the change itself ends nothing
    expect(ticked(engine.tick(utc('2026-03-29T05:59:59Z')))).toEqual([]);
    expect(ticked(engine.tick(utc('2026-03-29T06:00:02Z')))).toEqual(['d1 end Curfew 2026-03-29T06:00:00.000Z']);
    // Sunday 19:00 BST = 18:00Z.
    expect(engine.evaluate('d1', ...outside, utc('2026-03-29T17:59:00Z'))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...outside, utc('2026-03-29T18:00:00Z')))).toEqual(['start Curfew']);
  });

  it('keeps local hours across the autumn daylight-saving change (Europe/London, 25 October 2026)', () => {
    const curfew = polygonFence(perimeterCorners, { geofence_id: 'curfew', name: 'Curfew', schedule: nightly });
    const engine = new GeofenceEngine([curfew], [], LONDON);
    // Saturday 19:00 BST = 18:00Z; Sunday 07:00 GMT = 07:00Z: a 13-hour night.
    expect(engine.evaluate('d1', ...outside, utc('2026-10-24T17:59:00Z'))).toEqual([]);
    expect(summary(engine.evaluate('d1', ...outside, utc('2026-10-24T18:00:00Z')))).toEqual(['start Curfew']);
    expect(ticked(engine.tick(utc('2026-10-25T06:30:00Z')))).toEqual([]); // 06:30 GMT: still night
    expect(ticked(engine.tick(utc('2026-10-25T07:00:00Z')))).toEqual(['d1 end Curfew 2026-10-25T07:00:00.000Z']);
  });

  it('a violation restored after a restart outside its window ends at once', () => {
    const engine = new GeofenceEngine(
      [workshop],
      [{ deviceId: 'd1', geofenceId: 'workshop', violating: true, since: utc('2026-01-05T16:00:00Z') }],
      { ...LONDON, now: utc('2026-01-05T18:00:00Z') },
    );
    expect(ticked(engine.tick(utc('2026-01-05T18:00:01Z')))).toEqual(['d1 end Workshop 2026-01-05T18:00:00.000Z']);
    expect(ticked(engine.tick(utc('2026-01-05T18:00:06Z')))).toEqual([]);
  });
});

describe('geofence engine: scopes', () => {
  const blockA = circleFence({ geofence_id: 'a', name: 'Block A zone', applies_to: { blocks: ['A'] } });
  const forSeven = circleFence({ geofence_id: 'p7', name: 'Zone of 7', applies_to: { prisoner_ids: [7] } });
  const everyone = circleFence({ geofence_id: 'all', name: 'Zone of all', radius: 500 });
  const t = (s: number) => new Date(Date.UTC(2026, 0, 5, 12, 0, s));

  it('a zone for one block applies to its prisoners only; one for a prisoner to that prisoner only', () => {
    const engine = new GeofenceEngine([blockA, forSeven, everyone]);
    expect(summary(engine.evaluate('inA', ...inside, t(0), { prisonerId: 1, block: 'A' })).sort()).toEqual(['start Block A zone', 'start Zone of all']);
    expect(summary(engine.evaluate('inB', ...inside, t(0), { prisonerId: 2, block: 'B' }))).toEqual(['start Zone of all']);
    expect(summary(engine.evaluate('seven', ...inside, t(0), { prisonerId: 7, block: 'B' })).sort()).toEqual(['start Zone of 7', 'start Zone of all']);
    expect(summary(engine.evaluate('nobody', ...inside, t(0)))).toEqual(['start Zone of all']);
  });

  it('a zone for a block and a prisoner in it raises once', () => {
    const both = circleFence({ geofence_id: 'both', name: 'Both', applies_to: { blocks: ['A'], prisoner_ids: [7] } });
    const engine = new GeofenceEngine([both]);
    expect(summary(engine.evaluate('d', ...inside, t(0), { prisonerId: 7, block: 'A' }))).toEqual(['start Both']);
    expect(engine.evaluate('d', ...inside, t(1), { prisonerId: 7, block: 'A' })).toEqual([]);
  });

  it('a prisoner moved to another block: the old block zone ends, the new block Negative zone is met', () => {
    const curfewB = polygonFence(perimeterCorners, { geofence_id: 'cb', name: 'Curfew B', applies_to: { blocks: ['B'] } });
    const curfewA = polygonFence(perimeterCorners, { geofence_id: 'ca', name: 'Curfew A', applies_to: { blocks: ['A'] } });
    const engine = new GeofenceEngine([blockA, curfewA, curfewB]);
    expect(summary(engine.evaluate('d', ...inside, t(0), { prisonerId: 1, block: 'A' }))).toEqual(['start Block A zone']);
    // Outside the perimeter: Curfew A raises.
    expect(summary(engine.evaluate('d', ...outside, t(1), { prisonerId: 1, block: 'A' }))).toEqual(['end Block A zone', 'start Curfew A']);
    // Moved to block B while outside: Curfew A ends, Curfew B is met and raises.
    expect(summary(engine.evaluate('d', ...outside, t(2), { prisonerId: 1, block: 'B' })).sort()).toEqual(['end Curfew A', 'start Curfew B']);
    expect(engine.activeViolations('d').map((g) => g.name)).toEqual(['Curfew B']);
    expect(summary(engine.evaluate('d', ...inside, t(3), { prisonerId: 1, block: 'B' }))).toEqual(['end Curfew B']);
  });

  it('a violation restored after a restart ends at the first fix when its zone no longer applies to the wearer', () => {
    const curfewA = polygonFence(perimeterCorners, { geofence_id: 'ca', name: 'Curfew A', applies_to: { blocks: ['A'] } });
    const engine = new GeofenceEngine([curfewA, blockA], [
      { deviceId: 'moved', geofenceId: 'ca', violating: true, since: t(0) },
      { deviceId: 'stayed', geofenceId: 'ca', violating: true, since: t(0) },
    ]);
    expect(summary(engine.evaluate('moved', ...outside, t(5), { prisonerId: 1, block: 'B' }))).toEqual(['end Curfew A']);
    expect(engine.evaluate('stayed', ...outside, t(5), { prisonerId: 2, block: 'A' })).toEqual([]); // still running
    expect(engine.activeViolations('stayed').map((g) => g.name)).toEqual(['Curfew A']);
  });

  it('queries only the zones of everyone, of the wearer block and of the wearer', () => {
    const fences = [everyone];
    for (let id = 1; id <= 1000; id++) fences.push(circleFence({ geofence_id: `p${id}`, name: `P${id}`, applies_to: { prisoner_ids: [id] } }));
    const scoped = new ScopedGeofences(fences);
    expect(scoped.query(...inside, { prisonerId: 5, block: null })).toBe(2);
    expect(scoped.query(...inside, { prisonerId: null, block: null })).toBe(1);
    expect(scoped.query(...inside, { prisonerId: 5000, block: 'Z' })).toBe(1);
  });

  it('agrees with testing every geofence that applies, for scanned and indexed scopes alike', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const fences = Array.from({ length: 400 }, (_, i) =>
      circleFence({
        geofence_id: `f${i}`,
        radius: 50 + rand() * 400,
        center_lat: (rand() - 0.5) * 0.02,
        center_lng: (rand() - 0.5) * 0.02,
        buffer_meters: i % 3 === 0 ? 10 : 0,
        // Everyone, a small block, a large block (indexed), or one or two prisoners.
        applies_to:
          [
            null,
            { blocks: [`S${i % 45}`] },
            { blocks: ['L'] },
            { prisoner_ids: [1 + (i % 40)] },
            { prisoner_ids: [4 + (i % 40)], blocks: [`S${i % 45}`] },
          ][i % 5] ?? null,
      }),
    );
    // Block L holds 80 geofences (indexed); blocks S* and prisoners about 10 each (scanned); f4 is for prisoner 8
    // and for block S4.
    const scoped = new ScopedGeofences(fences);
    const compiled = fences.map(compileGeofence);
    const wearers: Wearer[] = [
      { prisonerId: null, block: null },
      { prisonerId: 4, block: 'S1' },
      { prisonerId: 8, block: 'S4' },
      { prisonerId: 2, block: 'L' },
      { prisonerId: 9, block: 'Q' },
    ];
    for (let k = 0; k < 500; k++) {
      const lat = (rand() - 0.5) * 0.024;
      const lng = (rand() - 0.5) * 0.024;
      for (const wearer of wearers) {
        const n = scoped.query(lat, lng, wearer);
        const got = new Map<string, number>();
        for (let i = 0; i < n; i++) if (scoped.hitCodes[i] !== OUTSIDE) got.set(fences[scoped.hitSlots[i]!]!.geofence_id, scoped.hitCodes[i]!);
        expect(new Set(Array.from({ length: n }, (_, i) => scoped.hitSlots[i])).size).toBe(n); // each once
        const expected = new Map<string, number>();
        for (const fence of compiled) {
          if (!scoped.appliesTo(fence.slot, wearer)) continue;
          const code = containmentOf(fence, lat, lng);
          if (code !== OUTSIDE) expected.set(fence.id, code);
        }
        expect(got).toEqual(expected);
      }
    }
  });
});
