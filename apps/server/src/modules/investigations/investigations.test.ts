// Who was near, through the real OsmAnd protocol: three trackers, two meeting within 5 m for 40 s and one
// 200 m away; who was near, the contacts of the pair, everyone at a moment, empty windows, bad input, caseload, audit.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_PREFIX, haversineMeters, METERS_PER_DEGREE, type NearResponse, type SnapshotResponse } from '@prison/shared';
import { auditLog, cells, prisoners } from '../../db/schema';
import { addDevice, addPrisoner, addStaff, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';
import { loginWithCaseload } from '../../../test/caseload-accounts';

const LAT = 51.5007;
const LNG = -0.1246;
/** Metres east of (LAT, LNG) as degrees of longitude. */
const east = (m: number) => m / (METERS_PER_DEGREE * Math.cos((LAT * Math.PI) / 180));
const STEP_S = 5;
const FIXES = 25; // two minutes, every 5 s

describeEachEngine('investigations: who was near, contacts, snapshot', (engine) => {
  const ctx = useListeningApp(engine);
  // Whole seconds, ten minutes ago: fixes of the recent past, as a real tracker sends them.
  const base = Math.floor((Date.now() - 600_000) / 1000) * 1000;
  const at = (s: number) => new Date(base + s * 1000).toISOString();
  let a: { id: number; name: string };
  let b: { id: number; name: string };
  let c: { id: number; name: string };
  /** B's position at second s: 150 m east, then within 5 m of A from 35 s to 75 s (40 s), then 150 m east again. */
  const bAt = (s: number) => ({ lat: LAT, lng: LNG + east(s >= 35 && s <= 75 ? 2 + Math.abs(s - 55) / 10 : 150) });
  const aAt = () => ({ lat: LAT, lng: LNG });
  const cAt = () => ({ lat: LAT + 200 / METERS_PER_DEGREE, lng: LNG });

  const get = <T>(url: string) => ctx().api('GET', url).then((r) => ({ status: r.statusCode, body: r.json<T>() }));

  beforeAll(async () => {
    a = await addPrisoner(ctx(), 'Ann', 'Meeting');
    b = await addPrisoner(ctx(), 'Bob', 'Meeting');
    c = await addStaff(ctx(), 'Cat', 'Distant');
    const devices = [
      { device: await addDevice(ctx(), { prisoner_id: a.id }), where: aAt },
      { device: await addDevice(ctx(), { prisoner_id: b.id }), where: bAt },
      { device: await addDevice(ctx(), { staff_id: c.id }), where: cAt },
    ];
    for (let i = 0; i < FIXES; i++) {
      const s = i * STEP_S;
      for (const { device, where } of devices) {
        const p = where(s);
        const res = await osmandGet(ctx().osmandUrl, { id: device.id, lat: p.lat, lon: p.lng, timestamp: at(s) });
        expect(res.status).toBe(200);
      }
    }
  });

  it('near a prisoner: exactly the one who met him, with the first and last time and the minimum distance', async () => {
    const res = await get<NearResponse>(`/location/near?prisoner_id=${a.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const expected = haversineMeters(LAT, LNG, bAt(55).lat, bAt(55).lng);
    expect(res.body.data[0]).toMatchObject({ prisoner_id: b.id, staff_id: null, name: b.name, first_at: at(35), last_at: at(75), fixes: 9 });
    // His prison number beside the name (decision 101); staff have none.
    const [{ number }] = (await ctx().database.db.select({ number: prisoners.prisonNumber }).from(prisoners).where(eq(prisoners.prisonerId, b.id))) as [{ number: string }];
    expect(res.body.data[0]!.prison_number).toBe(number);
    expect(res.body.data[0]!.min_distance_m).toBeCloseTo(expected, 1);
    expect(res.body.data[0]!.min_distance_m).toBeLessThan(5);
    expect(res.body.subject_track).toHaveLength(FIXES);
  });

  it('near a place names staff too; near the distant officer at 100 m is nobody', async () => {
    const place = await get<NearResponse>(`/location/near?lat=${cAt().lat}&lng=${cAt().lng}&from=${at(0)}&to=${at(120)}&radius_m=5`);
    expect(place.body.data.map((p) => [p.prisoner_id, p.staff_id])).toEqual([[null, c.id]]);
    expect(place.body.data[0]!.prison_number).toBeNull();
    const staff = await get<NearResponse>(`/location/near?staff_id=${c.id}&from=${at(0)}&to=${at(120)}&radius_m=100`);
    expect(staff.status).toBe(200);
    expect(staff.body.data).toEqual([]);
  });

  it('the contacts of the pair: one meeting, its start, end and minimum distance, whichever is named first', async () => {
    const res = await get<{ data: unknown[] }>(`/location/contacts?a=prisoner:${a.id}&b=prisoner:${b.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ start_at: at(35), end_at: at(75), min_distance_m: expect.closeTo(2, 1), fixes: 18 }]);
    const reversed = await get<{ data: unknown[] }>(`/location/contacts?a=prisoner:${b.id}&b=prisoner:${a.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
    expect(reversed.body).toEqual(res.body);
    const apart = await get<{ data: unknown[] }>(`/location/contacts?a=prisoner:${a.id}&b=staff:${c.id}&from=${at(0)}&to=${at(120)}&radius_m=100`);
    expect(apart.body.data).toEqual([]);
  });

  it('snapshot at a chosen second: each tracker where it was then', async () => {
    const res = await get<SnapshotResponse>(`/location/snapshot?at=${at(52)}`);
    expect(res.status).toBe(200);
    const ours = res.body.data.filter((e) => [a.id, b.id].includes(e.prisoner_id!) || e.staff_id === c.id);
    expect(ours).toHaveLength(3);
    expect(ours.find((e) => e.prisoner_id === a.id)).toMatchObject({ ...{ latitude: LAT, longitude: LNG }, at: at(50) });
    expect(ours.find((e) => e.prisoner_id === b.id)).toMatchObject({ latitude: bAt(50).lat, longitude: bAt(50).lng, at: at(50) });
    expect(ours.find((e) => e.staff_id === c.id)).toMatchObject({ latitude: cAt().lat, longitude: cAt().lng, at: at(50) });
  });

  it('snapshot after the trackers fell silent: the last fix until the offline threshold, then nothing', async () => {
    // The last fixes are at 120 s. More than a minute later they are no longer in the snapshot's recent time range and
    // are found by each tracker's own index (decision 068); past the threshold the trackers are offline.
    const offline = ctx().app.config.DEVICE_OFFLINE_SECONDS;
    expect(offline).toBeGreaterThan(61);
    const ours = (body: SnapshotResponse) => body.data.filter((e) => [a.id, b.id].includes(e.prisoner_id!) || e.staff_id === c.id);
    const silent = await get<SnapshotResponse>(`/location/snapshot?at=${at(120 + offline - 1)}`);
    expect(ours(silent.body).map((e) => e.at)).toEqual([at(120), at(120), at(120)]);
    expect(ours(silent.body).find((e) => e.prisoner_id === b.id)).toMatchObject({ latitude: bAt(120).lat, longitude: bAt(120).lng });
    const offlineNow = await get<SnapshotResponse>(`/location/snapshot?at=${at(120 + offline + 1)}`);
    expect(ours(offlineNow.body)).toEqual([]);
  });

  it('a window with no fixes is an empty list, not an error', async () => {
    const near = await get<NearResponse>(`/location/near?prisoner_id=${a.id}&from=${at(-7200)}&to=${at(-3600)}&radius_m=10`);
    expect(near).toEqual({ status: 200, body: { data: [], subject_track: [] } });
    const snapshot = await get<SnapshotResponse>(`/location/snapshot?at=${at(-86_400)}`);
    expect(snapshot).toEqual({ status: 200, body: { data: [] } });
  });

  it('bad input is a 400 naming the field, and unknown people a 404', async () => {
    const window = `from=${at(0)}&to=${at(120)}`;
    for (const [query, field] of [
      [`prisoner_id=${a.id}&${window}&radius_m=0`, 'radius_m'],
      [`prisoner_id=${a.id}&${window}&radius_m=10000`, 'radius_m'],
      [`prisoner_id=${a.id}&from=${at(120)}&to=${at(0)}&radius_m=10`, 'to'],
      [`prisoner_id=${a.id}&from=${at(0)}&to=${at(30 * 86_400)}&radius_m=10`, 'to'],
      [`${window}&radius_m=10`, 'prisoner_id'],
      [`lat=${LAT}&${window}&radius_m=10`, 'lng'],
    ] as const) {
      const res = await ctx().api('GET', `/location/near?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message, query).toContain(field);
    }
    const contacts = await ctx().api('GET', `/location/contacts?a=prisoner:${a.id}&b=cell:1&${window}&radius_m=10`);
    expect(contacts.statusCode).toBe(400);
    expect(contacts.json<{ message: string }>().message).toContain('b');
    const unknown = await ctx().api('GET', `/location/near?prisoner_id=987654&${window}&radius_m=10`);
    expect(unknown.statusCode).toBe(404);
    const snapshot = await ctx().api('GET', '/location/snapshot?at=yesterday');
    expect(snapshot.statusCode).toBe(400);
    expect(snapshot.json<{ message: string }>().message).toContain('at');
  });

  it('each question is audited: who asked what', async () => {
    await get(`/location/near?prisoner_id=${a.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
    const rows = await ctx().database.db.select().from(auditLog).where(eq(auditLog.action, 'location.near')).orderBy(auditLog.id);
    expect(rows.at(-1)).toMatchObject({ entity: 'prisoner', entityId: String(a.id), actor: 'warden' });
    expect(rows.at(-1)!.after).toMatchObject({ radius_m: 10, answers: 1 });
  });

  describe('caseload', () => {
    let officer: (url: string) => Promise<{ status: number; body: unknown }>;
    beforeAll(async () => {
      await ctx().database.db.insert(cells).values([
        { cellId: 'Near A-1', block: 'Near A', capacity: 10, securityLevel: 'Low' },
        { cellId: 'Near B-1', block: 'Near B', capacity: 10, securityLevel: 'Low' },
      ]);
      await ctx().database.db.update(prisoners).set({ cellId: 'Near A-1' }).where(eq(prisoners.prisonerId, a.id));
      await ctx().database.db.update(prisoners).set({ cellId: 'Near B-1' }).where(eq(prisoners.prisonerId, b.id));
      const cookie = await loginWithCaseload(ctx(), ['Near A']);
      officer = (url) =>
        ctx()
          .app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers: { cookie } })
          .then((r) => ({ status: r.statusCode, body: r.json() }));
    });

    it('prisoners outside the blocks do not appear, and cannot be asked about', async () => {
      const near = await officer(`/location/near?prisoner_id=${a.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
      expect(near).toMatchObject({ status: 200, body: { data: [] } });
      const outside = await officer(`/location/near?prisoner_id=${b.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
      expect(outside).toEqual({ status: 404, body: { message: `No prisoner with id ${b.id}` } });
      const pair = await officer(`/location/contacts?a=prisoner:${a.id}&b=prisoner:${b.id}&from=${at(0)}&to=${at(120)}&radius_m=10`);
      expect(pair).toEqual({ status: 404, body: { message: `No prisoner with id ${b.id}` } });
      const snapshot = (await officer(`/location/snapshot?at=${at(52)}`)) as { body: SnapshotResponse };
      const ids = snapshot.body.data.map((e) => e.prisoner_id);
      expect(ids).toContain(a.id);
      expect(ids).not.toContain(b.id);
      expect(snapshot.body.data.some((e) => e.staff_id === c.id)).toBe(true);
    });
  });
});
