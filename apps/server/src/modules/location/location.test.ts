import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { alerts, auditLog, geofences, positions, prisoners } from '../../db/schema';
import { deleteExpiredPositions } from '../../tracking/retention-job';
import { distanceMeters } from './track-geometry';

const T0 = Date.parse('2026-03-01T08:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describeEachEngine('location history', (engine) => {
  const ctx = useTestApp(engine);

  async function newPrisoner(first = 'Track', last = 'Tester') {
    const [row] = await ctx().database.db.insert(prisoners).values({ firstName: first, lastName: last }).returning();
    return row!.prisonerId;
  }

  /** One fix per second moving north by about 1.1 m each; the first `insideSeconds` sit in a 50 m circle. */
  async function seedTrack(prisonerId: number, count: number, startMs = T0) {
    const rows = Array.from({ length: count }, (_, i) => ({
      deviceId: `dev-${prisonerId}`,
      prisonerId,
      recordedAt: new Date(startMs + i * 1000),
      latitude: 51.5 + i * 0.00001,
      longitude: -0.12,
      speed: 1.1,
      accuracy: 5,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await ctx()
        .database.db.insert(positions)
        .values(rows.slice(i, i + 1000));
  }

  it('returns every fix of a short range with distance, geofence time and alerts', async () => {
    const id = await newPrisoner();
    await seedTrack(id, 120);
    await ctx()
      .database.db.insert(geofences)
      .values([
        // The first ~45 fixes (0 .. 50 m north of the start) are inside this circle.
        {
          geofenceId: `yard-${id}`,
          name: 'Yard',
          shape: 'Circle',
          type: 'Positive',
          alertType: 'Warning',
          radius: 50,
          centerLat: 51.5,
          centerLng: -0.12,
        },
        {
          geofenceId: `wing-${id}`,
          name: 'Wing',
          shape: 'Polygon',
          type: 'Negative',
          alertType: 'Critical',
          coordinates: [
            [51.5006, -0.121],
            [51.5006, -0.119],
            [51.6, -0.119],
            [51.6, -0.121],
          ],
        },
      ]);
    await ctx()
      .database.db.insert(alerts)
      .values([
        {
          alertType: 'Warning',
          kind: 'geofence',
          details: 'Entered Yard',
          date: '2026-03-01',
          timestamp: new Date(T0 + 10_000),
          prisonerId: id,
        },
        {
          alertType: 'Critical',
          kind: 'sos',
          details: 'Outside the range',
          date: '2026-03-01',
          timestamp: new Date(T0 - 3_600_000),
          prisonerId: id,
        },
      ]);
    const res = await ctx().api('GET', `/location/history?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 119_000)}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ prisoner_id: id, prisoner_name: 'Track Tester', total: 120, thinned: false });
    expect(body.points).toHaveLength(120);
    expect(body.points[0]).toEqual({ t: iso(T0), lat: 51.5, lng: -0.12, speed: 1.1, accuracy: 5 });
    const expected = distanceMeters(51.5, -0.12, 51.5 + 119 * 0.00001, -0.12);
    expect(body.distance_m).toBeCloseTo(expected, 0);
    const yard = body.geofence_time.find((g: { geofence_id: string }) => g.geofence_id === `yard-${id}`);
    expect(yard.seconds).toBeGreaterThanOrEqual(44);
    expect(yard.seconds).toBeLessThanOrEqual(46);
    // Fixes from 0.0006 degrees north (fix 60) on are inside the wing: 60 fixes, the last holds no time.
    const wing = body.geofence_time.find((g: { name: string }) => g.name === 'Wing');
    expect(wing.seconds).toBe(59);
    expect(body.alerts).toEqual([
      expect.objectContaining({ details: 'Entered Yard', alert_type: 'Warning', status: 'New' }),
    ]);
  });

  it('thins a long range to max_points, keeping the first and the last fix, distance over all fixes', async () => {
    const id = await newPrisoner();
    await seedTrack(id, 5000);
    const res = await ctx().api(
      'GET',
      `/location/history?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 86_400_000)}&max_points=500`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(5000);
    expect(body.thinned).toBe(true);
    expect(body.points).toHaveLength(500);
    expect(body.points[0].t).toBe(iso(T0));
    expect(body.points.at(-1).t).toBe(iso(T0 + 4999_000));
    expect(body.distance_m).toBeCloseTo(distanceMeters(51.5, -0.12, 51.5 + 4999 * 0.00001, -0.12), 0);
    const defaults = await ctx().api(
      'GET',
      `/location/history?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 86_400_000)}`,
    );
    expect(defaults.json().points).toHaveLength(2000);
  });

  it('keeps exact coordinates and millisecond times, and fixes without speed or accuracy', async () => {
    const id = await newPrisoner();
    await ctx()
      .database.db.insert(positions)
      .values([
        {
          deviceId: `bare-${id}`,
          prisonerId: id,
          recordedAt: new Date(T0 + 123),
          latitude: 51.123456789012,
          longitude: -0.987654321098,
        },
        {
          deviceId: `bare-${id}`,
          prisonerId: id,
          recordedAt: new Date(T0 + 1456),
          latitude: -33.9,
          longitude: 151.2,
          speed: 0,
          accuracy: 12.5,
        },
      ]);
    const res = await ctx().api('GET', `/location/history?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 2000)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().points).toEqual([
      { t: iso(T0 + 123), lat: 51.123456789012, lng: -0.987654321098, speed: null, accuracy: null },
      { t: iso(T0 + 1456), lat: -33.9, lng: 151.2, speed: 0, accuracy: 12.5 },
    ]);
  });

  it('answers an empty track for a range without fixes', async () => {
    const id = await newPrisoner();
    const res = await ctx().api('GET', `/location/history?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 1000)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      points: [],
      total: 0,
      thinned: false,
      distance_m: 0,
      geofence_time: [],
      alerts: [],
    });
  });

  it('refuses bad input naming the field, and answers 404 for an unknown prisoner', async () => {
    const id = await newPrisoner();
    const cases: [string, RegExp][] = [
      [`from=${iso(T0)}&to=${iso(T0 + 1000)}`, /^prisoner_id/],
      [`prisoner_id=${id}&from=yesterday&to=${iso(T0)}`, /^from/],
      [`prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 - 1000)}`, /^to: to must be after from/],
      [`prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 40 * 86_400_000)}`, /^to: the range may span at most 31 days/],
      [`prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 1000)}&max_points=1`, /^max_points/],
    ];
    for (const [query, message] of cases) {
      const res = await ctx().api('GET', `/location/history?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(message);
    }
    const unknown = await ctx().api('GET', `/location/history?prisoner_id=999999&from=${iso(T0)}&to=${iso(T0 + 1000)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'No prisoner with id 999999' });
    const exportUnknown = await ctx().api(
      'GET',
      `/location/export?prisoner_id=999999&from=${iso(T0)}&to=${iso(T0 + 1000)}`,
    );
    expect(exportUnknown.statusCode).toBe(404);
    const badFormat = await ctx().api(
      'GET',
      `/location/export?prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 1000)}&format=kml`,
    );
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().message).toMatch(/^format/);
  });

  it('needs a session', async () => {
    const res = await ctx().app.inject({
      method: 'GET',
      url: `/api/v1/location/history?prisoner_id=1&from=${iso(T0)}&to=${iso(T0 + 1000)}`,
    });
    expect(res.statusCode).toBe(401);
    const exp = await ctx().app.inject({
      method: 'GET',
      url: `/api/v1/location/export?prisoner_id=1&from=${iso(T0)}&to=${iso(T0 + 1000)}`,
    });
    expect(exp.statusCode).toBe(401);
  });

  it('exports every fix as GPX and CSV with a filename, across several chunks, and audits the export', async () => {
    const id = await newPrisoner('Gpx', 'O"Neil & <Co>');
    await seedTrack(id, 12_000);
    const query = `prisoner_id=${id}&from=${iso(T0)}&to=${iso(T0 + 86_400_000)}`;
    const gpx = await ctx().api('GET', `/location/export?${query}&format=gpx`);
    expect(gpx.statusCode).toBe(200);
    expect(gpx.headers['content-type']).toBe('application/gpx+xml; charset=utf-8');
    expect(gpx.headers['content-disposition']).toBe(
      `attachment; filename="track-prisoner-${id}-20260301T080000Z-20260302T080000Z.gpx"`,
    );
    expect(gpx.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(gpx.body).toContain('<name>Gpx O&quot;Neil &amp; &lt;Co&gt; (prisoner');
    const trkpts = gpx.body.match(/<trkpt /g) ?? [];
    expect(trkpts).toHaveLength(12_000);
    expect(gpx.body).toContain(`<trkpt lat="51.5" lon="-0.12"><time>2026-03-01T08:00:00.000Z</time></trkpt>`);
    expect(gpx.body.trimEnd().endsWith('</gpx>')).toBe(true);

    const csv = await ctx().api('GET', `/location/export?${query}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /filename="track-prisoner-\d+-20260301T080000Z-20260302T080000Z\.csv"/,
    );
    const lines = csv.body.trimEnd().split('\n');
    expect(lines[0]).toBe('time,latitude,longitude,speed,accuracy,altitude,bearing,battery,device_id');
    expect(lines).toHaveLength(12_001);
    expect(lines[1]).toMatch(/^2026-03-01T08:00:00.000Z,51.5,-0.12,1.1\d*,5,,,,dev-\d+$/);
    expect(lines[12_000]).toMatch(/^2026-03-01T11:19:59.000Z,/);
    // No fix twice, none missed across the chunk borders.
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(12_000);

    const [audit] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'location.export' and ${auditLog.entityId} = ${String(id)}`).orderBy(auditLog.id)
      .limit(1);
    expect(audit).toMatchObject({ actor: 'warden', entity: 'prisoner' });
  });

  it('retention deletes only fixes older than the limit, in batches, and keeps alerts', async () => {
    const id = await newPrisoner();
    const now = Date.parse('2027-06-01T00:00:00Z');
    await seedTrack(id, 25, now - 400 * 86_400_000); // old
    await seedTrack(id, 5, now - 10 * 86_400_000); // recent
    await ctx()
      .database.db.insert(alerts)
      .values({
        alertType: 'Warning',
        details: 'old alert',
        date: '2026-04-27',
        timestamp: new Date(now - 400 * 86_400_000),
        prisonerId: id,
      });
    const deleted = await deleteExpiredPositions(ctx().database.db, 365, { batchSize: 10, now: new Date(now) });
    expect(deleted).toBeGreaterThanOrEqual(25);
    const left = await ctx()
      .database.db.select()
      .from(positions)
      .where(sql`${positions.prisonerId} = ${id}`);
    expect(left).toHaveLength(5);
    const kept = await ctx()
      .database.db.select()
      .from(alerts)
      .where(sql`${alerts.prisonerId} = ${id}`);
    expect(kept).toHaveLength(1);
    const [entry] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'retention.delete'`).orderBy(auditLog.id)
      .limit(1);
    expect(entry).toMatchObject({ actor: 'system', entity: 'positions' });
  });
});
