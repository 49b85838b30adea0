// Escorts on live positions (decision 035): the separation timer from fixes and from the tick, rejoining, the
// escort's window, and the perimeter held back while the escort holds, raised when it ends or fails.
import { describe, expect, it } from 'vitest';
import { EscortMonitor, escortAlertMessage, type EscortRef } from './escort-monitor';
import { GeofenceEngine, type EngineTransition } from './geofence-engine';
import { east, perimeterCorners, polygonFence } from './geofence-test-shapes';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const PRISONER = 7;
const OFFICER = 3;
const escort: EscortRef = { id: 1, prisonerId: PRISONER, staffId: OFFICER, maxDistanceM: 50, from: T0, until: null, staffName: 'Pat Officer', officerDeviceId: 's-dev', unmonitored: false };
/** The officer's tracker as the registry would answer; these tests are about distances and windows. */
const trackerOnline = () => 'online' as const;

function positioned(monitor: EscortMonitor) {
  return {
    prisoner: (metres: number, seconds: number) => {
      const [lat, lng] = east(metres);
      return monitor.updatePrisoner(PRISONER, { deviceId: 'p-dev', name: 'Ann Lee', lat, lng, at: at(seconds) });
    },
    officer: (metres: number, seconds: number) => {
      const [lat, lng] = east(metres);
      return monitor.updateStaff(OFFICER, { deviceId: 's-dev', name: 'Pat Officer', lat, lng, at: at(seconds) });
    },
  };
}

describe('escort monitor', () => {
  it('an escort separated for longer than 30 s raises one unescorted event, and rejoined ends it', () => {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([escort]);
    const { prisoner, officer } = positioned(monitor);
    expect(officer(0, 0)).toEqual([]);
    expect(prisoner(20, 0)).toEqual([]); // 20 m: escorted
    expect(prisoner(120, 5)).toEqual([]); // apart from t=5
    expect(monitor.holds(PRISONER, at(20).getTime())).toBe(true); // apart, not yet for 30 s: still holds
    expect(prisoner(130, 35)).toEqual([]); // exactly 30 s: not longer
    const failed = prisoner(140, 36);
    expect(failed.map((e) => e.kind)).toEqual(['unescorted']);
    expect(escortAlertMessage(failed[0]!)).toBe('Ann Lee is unescorted (140 m from Pat Officer)');
    expect(monitor.holds(PRISONER, at(36).getTime())).toBe(false);
    expect(prisoner(150, 40)).toEqual([]); // once per separation
    // The officer catches up: they are close again.
    const rejoined = officer(140, 45);
    expect(rejoined.map((e) => e.kind)).toEqual(['rejoined']);
    expect(monitor.holds(PRISONER, at(45).getTime())).toBe(true);
    // A new separation raises again, after its own 30 s.
    expect(prisoner(300, 50)).toEqual([]);
    expect(prisoner(300, 81).map((e) => e.kind)).toEqual(['unescorted']);
  });

  it('the tick raises a separation whose fixes stopped, once; a reload keeps the state', () => {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([escort]);
    const { prisoner, officer } = positioned(monitor);
    officer(0, 0);
    prisoner(200, 10);
    expect(monitor.tick(at(30))).toEqual([]);
    monitor.setEscorts([{ ...escort }]); // a reload (another escort written) changes nothing
    const ticked = monitor.tick(at(41));
    expect(ticked.map((e) => [e.kind, e.at.getTime()])).toEqual([['unescorted', at(40).getTime()]]);
    expect(monitor.tick(at(60))).toEqual([]);
  });

  it('outside its window an escort neither holds nor raises; ended (reloaded without it) it no longer holds', () => {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([{ ...escort, from: at(100).getTime(), until: at(200).getTime() }]);
    const { prisoner, officer } = positioned(monitor);
    expect(monitor.holds(PRISONER, at(50).getTime())).toBe(false);
    officer(0, 0);
    prisoner(500, 1);
    expect(prisoner(500, 60)).toEqual([]);
    officer(500, 140);
    expect(monitor.holds(PRISONER, at(150).getTime())).toBe(true);
    expect(monitor.holds(PRISONER, at(200).getTime())).toBe(false);
    monitor.setEscorts([]);
    expect(monitor.holds(PRISONER, at(150).getTime())).toBe(false);
    expect(prisoner(500, 150)).toEqual([]);
  });

  it('save and restore put a person back as before a batch that was not stored', () => {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([escort]);
    const { prisoner, officer } = positioned(monitor);
    officer(0, 0);
    prisoner(200, 0);
    const saved = monitor.savePrisoner(PRISONER);
    expect(prisoner(200, 31).map((e) => e.kind)).toEqual(['unescorted']);
    monitor.restorePrisoner(PRISONER, saved);
    // The retry raises it again.
    expect(prisoner(200, 31).map((e) => e.kind)).toEqual(['unescorted']);
  });
});

describe('an escort holds only while proven (decision 037)', () => {
  it('no tracker, a tracker offline or not the officer\'s, no position, unmonitored: not escorting, and why', () => {
    let tracker: 'online' | 'offline' | 'none' = 'online';
    const monitor = new EscortMonitor(() => tracker);
    monitor.setEscorts([escort]);
    const t = at(10).getTime();
    expect(monitor.holds(PRISONER, t)).toBe(false);
    expect(monitor.status(escort.id, t)).toEqual({ escorting: false, reason: 'No position from the officer yet' });
    // A position known before the escort was loaded (the stored last fix after a restart) is proof enough.
    const [lat, lng] = east(0);
    monitor.rememberStaff(OFFICER, { deviceId: 's-dev', name: 'Pat Officer', lat, lng, at: at(0) });
    expect(monitor.holds(PRISONER, t)).toBe(true);
    expect(monitor.status(escort.id, t)).toEqual({ escorting: true, reason: null });
    tracker = 'offline';
    expect(monitor.holds(PRISONER, t)).toBe(false);
    expect(monitor.status(escort.id, t).reason).toBe("Officer's tracker offline");
    tracker = 'none';
    expect(monitor.status(escort.id, t).reason).toBe('Officer has no tracker');
    tracker = 'online';
    monitor.setEscorts([{ ...escort, officerDeviceId: null }]);
    expect(monitor.holds(PRISONER, t)).toBe(false);
    expect(monitor.status(escort.id, t).reason).toBe('Officer has no tracker');
    monitor.setEscorts([{ ...escort, unmonitored: true }]);
    expect(monitor.holds(PRISONER, t)).toBe(false);
    expect(monitor.status(escort.id, t).reason).toBe('Unmonitored: record only');
    // Not in force: not escorting, with nothing to explain; unknown escorts likewise.
    monitor.setEscorts([{ ...escort, until: at(5).getTime() }]);
    expect(monitor.status(escort.id, t)).toEqual({ escorting: false, reason: null });
    expect(monitor.status(999, t)).toEqual({ escorting: false, reason: null });
  });

  it('an unmonitored escort measures nothing and raises nothing; a failed one says how far apart', () => {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([{ ...escort, unmonitored: true }]);
    const { prisoner, officer } = positioned(monitor);
    officer(0, 0);
    prisoner(500, 1);
    expect(prisoner(500, 60)).toEqual([]);
    expect(monitor.tick(at(120))).toEqual([]);
    monitor.setEscorts([escort]);
    prisoner(500, 130);
    officer(0, 150);
    expect(prisoner(500, 161).map((e) => e.kind)).toEqual(['unescorted']);
    expect(monitor.status(escort.id, at(161).getTime())).toEqual({ escorting: false, reason: 'Separated: 500 m from the officer (limit 50 m)' });
  });
});

describe('geofence engine with escorts: the perimeter waits while the escort holds', () => {
  const perimeter = polygonFence(perimeterCorners, { geofence_id: 'perimeter', name: 'Perimeter' });
  const summary = (transitions: EngineTransition[]) => transitions.map((t) => `${t.kind} ${t.geofence.name}`);
  const wearer = { prisonerId: PRISONER, block: null };

  function setup() {
    const monitor = new EscortMonitor(trackerOnline);
    monitor.setEscorts([escort]);
    const engine = new GeofenceEngine([perimeter]);
    engine.setNegativeSuppression((id, t) => monitor.holds(id, t));
    const { prisoner, officer } = positioned(monitor);
    // The order of the tracking service: the escort first, then the engine.
    const fix = (metres: number, seconds: number) => {
      prisoner(metres, seconds);
      return summary(engine.evaluate('p-dev', ...east(metres), at(seconds), wearer));
    };
    return { monitor, engine, officer, fix };
  }

  it('an escorted prisoner outside the perimeter raises nothing; the escort ended, it is raised at once', () => {
    const { monitor, engine, officer, fix } = setup();
    expect(fix(500, 0)).toEqual([]); // inside
    officer(2010, 1);
    expect(fix(2000, 2)).toEqual([]); // outside, escorted (10 m from the officer)
    officer(2110, 50);
    expect(fix(2100, 60)).toEqual([]);
    officer(2110, 80);
    expect(engine.tick(at(90))).toEqual([]);
    // The escort ends (reloaded without it): the next tick raises the violation without waiting for a fix.
    monitor.setEscorts([]);
    const ticked = engine.tick(at(91));
    expect(ticked.flatMap((d) => summary(d.transitions))).toEqual(['start Perimeter']);
    expect(fix(2100, 92)).toEqual([]); // once
    expect(fix(500, 93)).toEqual(['end Perimeter']);
  });

  it('an escort that fails (apart for longer than 30 s) no longer holds the perimeter back', () => {
    const { officer, fix } = setup();
    expect(fix(500, 0)).toEqual([]);
    officer(2000, 1);
    expect(fix(2000, 2)).toEqual([]);
    expect(fix(2300, 10)).toEqual([]); // 300 m from the officer: apart from t=10
    officer(2000, 30); // still reporting, still 300 m away
    expect(fix(2300, 40)).toEqual([]); // 30 s: the escort still holds
    expect(fix(2300, 41)).toEqual(['start Perimeter']); // the escort failed with this fix
  });

  it('the exemption ends 30 s after the officer\'s last fix, his tracker still online: at the next fix, or at the tick', () => {
    const byFix = setup();
    expect(byFix.fix(500, 0)).toEqual([]);
    byFix.officer(2010, 1);
    expect(byFix.fix(2000, 2)).toEqual([]); // outside, escorted
    expect(byFix.fix(2000, 31)).toEqual([]); // the officer's fix 30 s old: still proven
    expect(byFix.monitor.status(escort.id, at(31).getTime())).toEqual({ escorting: true, reason: null });
    expect(byFix.fix(2000, 32)).toEqual(['start Perimeter']);
    expect(byFix.monitor.status(escort.id, at(32).getTime())).toEqual({ escorting: false, reason: "No fix from the officer's tracker for over 30 s" });
    // He reports again: the escort holds again, and the violation that started meanwhile keeps running.
    byFix.officer(2010, 40);
    expect(byFix.monitor.holds(PRISONER, at(41).getTime())).toBe(true);
    expect(byFix.fix(2000, 41)).toEqual([]);

    // No fix of the prisoner's after he walked out: the tick raises it.
    const byTick = setup();
    expect(byTick.fix(500, 0)).toEqual([]);
    byTick.officer(2010, 1);
    expect(byTick.fix(2000, 2)).toEqual([]);
    expect(byTick.engine.tick(at(31))).toEqual([]);
    expect(byTick.engine.tick(at(32)).flatMap((d) => summary(d.transitions))).toEqual(['start Perimeter']);
  });

  it('a prisoner without an escort is raised as before', () => {
    const { fix } = setup();
    const engine = new GeofenceEngine([perimeter]);
    engine.setNegativeSuppression(() => false);
    expect(summary(engine.evaluate('x', ...east(500), at(0), { prisonerId: 99, block: null }))).toEqual([]);
    expect(summary(engine.evaluate('x', ...east(2000), at(1), { prisonerId: 99, block: null }))).toEqual(['start Perimeter']);
    expect(fix(500, 0)).toEqual([]);
  });
});
