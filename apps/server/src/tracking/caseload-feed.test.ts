// The live feed by caseload (decision 051), on a real listening server with real Socket.IO clients and
// fixes through the OsmAnd port: an officer of block A receives no position, alert or snapshot entry of a block B
// prisoner (nor of a prisoner with no cell) while they move and breach a geofence, on both feeds (deltas and the
// spec's complete set); block A's, the staff trackers' and the alerts about nobody they do receive; a prisoner moved
// to another block leaves one officer's map and joins the other's. An administrator still receives everything.
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LocationChanges, LocationSnapshot, ShowAlertEvent } from '@prison/shared';
import { alerts, cells, prisoners } from '../db/schema';
import { loginWithCaseload } from '../../test/caseload-accounts';
import { writeApproved } from '../../test/test-app';
import { describeEachEngine } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';
import {
  addDevice,
  addPrisoner,
  addStaff,
  browserSocket,
  connected,
  nextEvent,
  osmandGet,
  type BrowserSocket,
  useListeningApp,
} from './tracking-test-kit';

const LAT = 51.5007;
const LNG = -0.1246;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Everything a socket receives, by event. */
function record(socket: BrowserSocket) {
  const seen = { changes: [] as LocationChanges[], sets: [] as LocationSnapshot[], alerts: [] as ShowAlertEvent[] };
  socket.on('locationChanges', (changes) => seen.changes.push(changes));
  socket.on('locationUpdate', (set) => seen.sets.push(set));
  socket.on('showAlert', (alert) => seen.alerts.push(alert));
  return seen;
}

/** Every device id a socket was given a position of (snapshots, complete sets and deltas). */
const positionsSeen = (seen: ReturnType<typeof record>) =>
  new Set([...seen.sets.flatMap((set) => Object.keys(set)), ...seen.changes.flatMap((c) => Object.keys(c.changed))]);

describeEachEngine('the live feed by caseload', (engine) => {
  const ctx = useListeningApp(engine);
  const send = (id: string, lat: number, lng: number, timestamp: number, extra: Record<string, string> = {}) =>
    osmandGet(ctx().osmandUrl, { id, lat, lon: lng, timestamp, ...extra });

  it('an officer of block A receives nothing of block B or of a prisoner with no cell while they move and breach; block A, staff and alerts about nobody they do', async () => {
    const [blockA, blockB] = [`A${engine}`, `B${engine}`];
    await ctx()
      .database.db.insert(cells)
      .values([
        { cellId: `${blockA}-1`, block: blockA, capacity: 4, securityLevel: 'Low' },
        { cellId: `${blockB}-1`, block: blockB, capacity: 4, securityLevel: 'Low' },
      ]);
    const inA = await addPrisoner(ctx(), 'Alice', 'Ainblock');
    const inB = await addPrisoner(ctx(), 'Bob', 'Binblock');
    const noCell = await addPrisoner(ctx(), 'Nemo', 'Nocell');
    await ctx()
      .database.db.update(prisoners)
      .set({ cellId: `${blockA}-1` })
      .where(eq(prisoners.prisonerId, inA.id));
    await ctx()
      .database.db.update(prisoners)
      .set({ cellId: `${blockB}-1` })
      .where(eq(prisoners.prisonerId, inB.id));
    const deviceA = await addDevice(ctx(), { prisoner_id: inA.id });
    const deviceB = await addDevice(ctx(), { prisoner_id: inB.id });
    const deviceNoCell = await addDevice(ctx(), { prisoner_id: noCell.id });
    const officer = await addStaff(ctx(), 'Stella', 'Staff');
    const staffDevice = await addDevice(ctx(), { staff_id: officer.id });
    const loose = await addDevice(ctx());
    // The registry learns the cells (they were set in the database directly).
    await ctx().app.tracking.wearersChanged();
    const fence = `caseload-perimeter-${engine}`;
    expect(
      (
        await ctx().api('POST', '/geofence/add', {
          geofence_id: fence,
          shape: 'Circle',
          name: 'Perimeter',
          type: 'Negative',
          alert_type: 'Critical',
          radius: 200,
          center_lat: LAT,
          center_lng: LNG,
          dwell_seconds: 0, // the breach at its first fix outside
        })
      ).statusCode,
    ).toBe(200);

    let t = nowSeconds() - 120;
    for (const device of [deviceA, deviceB, deviceNoCell, staffDevice, loose])
      expect((await send(device.id, LAT, LNG, t)).status).toBe(200);

    const officerCookie = await loginWithCaseload(ctx(), [blockA]);
    const officerDeltas = browserSocket(ctx().baseUrl, officerCookie, { deltas: true });
    const officerFullSet = browserSocket(ctx().baseUrl, officerCookie);
    const adminDeltas = browserSocket(ctx().baseUrl, ctx().cookie, { deltas: true });
    const seenByOfficer = record(officerDeltas);
    const seenBySpecClient = record(officerFullSet);
    const seenByAdmin = record(adminDeltas);
    try {
      await Promise.all([connected(officerDeltas), connected(officerFullSet), connected(adminDeltas)]);
      await waitFor(
        'the snapshots',
        () => seenByOfficer.sets.length > 0 && seenBySpecClient.sets.length > 0 && seenByAdmin.sets.length > 0,
        3_000,
        20,
      );
      // The snapshot on connect: block A, the staff tracker and the unassigned device; never block B or no cell.
      expect(Object.keys(seenByOfficer.sets[0]!).sort()).toEqual([deviceA.id, staffDevice.id, loose.id].sort());
      expect(Object.keys(seenBySpecClient.sets[0]!).sort()).toEqual([deviceA.id, staffDevice.id, loose.id].sort());
      expect(Object.keys(seenByAdmin.sets[0]!).sort()).toEqual(
        [deviceA.id, deviceB.id, deviceNoCell.id, staffDevice.id, loose.id].sort(),
      );

      // Everyone walks, then the two prisoners of other caseloads and block A's prisoner breach the perimeter.
      for (let step = 1; step <= 5; step++) {
        t += 1;
        for (const device of [deviceA, deviceB, deviceNoCell, staffDevice])
          await send(device.id, LAT + step * 0.0001, LNG, t);
      }
      const breachedB = nextEvent<ShowAlertEvent>(adminDeltas, 'showAlert', (a) => a.index === deviceB.id);
      const breachedNoCell = nextEvent<ShowAlertEvent>(adminDeltas, 'showAlert', (a) => a.index === deviceNoCell.id);
      const breachedA = nextEvent<ShowAlertEvent>(officerDeltas, 'showAlert', (a) => a.index === deviceA.id);
      t += 1;
      for (const device of [deviceB, deviceNoCell, deviceA]) await send(device.id, LAT + 0.01, LNG, t);
      expect(await breachedB).toMatchObject({ prisonerId: inB.id, alert_type: 'critical' });
      expect(await breachedNoCell).toMatchObject({ prisonerId: noCell.id });
      expect(await breachedA).toMatchObject({
        prisonerId: inA.id,
        alert_type: 'critical',
        message: 'Alice Ainblock left Perimeter',
      });
      // The browser never learns the block it was routed by.
      expect(await breachedA).not.toHaveProperty('block');
      // An SOS of a staff tracker and an alert of an unassigned device are about nobody: everyone's.
      const staffSos = nextEvent<ShowAlertEvent>(officerDeltas, 'showAlert', (a) => a.index === staffDevice.id);
      const looseSos = nextEvent<ShowAlertEvent>(officerFullSet, 'showAlert', (a) => a.index === loose.id);
      t += 1;
      await send(staffDevice.id, LAT, LNG, t, { alarm: 'sos' });
      await send(loose.id, LAT, LNG, t, { alarm: 'sos' });
      await staffSos;
      await looseSos;
      // A complete-set tick and a few delta flushes after the last move.
      await new Promise((resolve) => setTimeout(resolve, 1_300));

      for (const seen of [seenByOfficer, seenBySpecClient]) {
        const positions = positionsSeen(seen);
        expect(positions.has(deviceB.id)).toBe(false);
        expect(positions.has(deviceNoCell.id)).toBe(false);
        expect(seen.alerts.filter((a) => a.index === deviceB.id || a.index === deviceNoCell.id)).toEqual([]);
        expect(seen.alerts.filter((a) => a.prisonerId === inB.id || a.prisonerId === noCell.id)).toEqual([]);
        expect(seen.alerts.some((a) => a.index === deviceA.id)).toBe(true);
        expect(seen.alerts.some((a) => a.index === staffDevice.id)).toBe(true);
      }
      // The officer's deltas carry block A's prisoner and the staff tracker as they move.
      const officerPositions = positionsSeen({ ...seenByOfficer, sets: [] });
      expect(officerPositions.has(deviceA.id)).toBe(true);
      expect(officerPositions.has(staffDevice.id)).toBe(true);
      // The spec's client's complete sets after the moves: block A and the staff, never B.
      const lastSet = seenBySpecClient.sets.at(-1)!;
      expect(lastSet[deviceA.id]!.latitude).toBeCloseTo(LAT + 0.01, 6);
      expect(Object.keys(lastSet)).not.toContain(deviceB.id);
      // The administrator saw every one of them, as before.
      const adminPositions = positionsSeen(seenByAdmin);
      for (const device of [deviceA, deviceB, deviceNoCell, staffDevice])
        expect(adminPositions.has(device.id)).toBe(true);

      // A snapshot asked for again holds block A only.
      officerDeltas.emit('requestSnapshot');
      const again = await nextEvent<LocationSnapshot>(officerDeltas, 'locationUpdate');
      expect(Object.keys(again)).not.toContain(deviceB.id);
      expect(Object.keys(again)).toContain(deviceA.id);

      // Moved between blocks without a fix: block B's prisoner appears on the officer's map, block A's leaves it.
      await ctx()
        .database.db.update(prisoners)
        .set({ cellId: `${blockA}-1` })
        .where(eq(prisoners.prisonerId, inB.id));
      await ctx()
        .database.db.update(prisoners)
        .set({ cellId: `${blockB}-1` })
        .where(eq(prisoners.prisonerId, inA.id));
      const arrived = nextEvent<LocationChanges>(officerDeltas, 'locationChanges', (c) => deviceB.id in c.changed);
      const left = nextEvent<LocationChanges>(officerDeltas, 'locationChanges', (c) => c.gone.includes(deviceA.id));
      await ctx().app.tracking.wearersChanged();
      await arrived;
      await left;
      await waitFor(
        'the complete set of the new caseload',
        () => {
          const set = seenBySpecClient.sets.at(-1)!;
          return deviceB.id in set && !(deviceA.id in set);
        },
        3_000,
        20,
      );
      // From now on block A's former prisoner moving and breaching again is not the officer's.
      const before = seenByOfficer.alerts.length;
      const changesBefore = seenByOfficer.changes.length;
      // A repeat of an open alert folds into it without a new showAlert: the first breach is resolved, so the next is new.
      await ctx().database.db.update(alerts).set({ status: 'Resolved', resolvedAt: new Date() }).where(eq(alerts.deviceId, deviceA.id));
      const shownToAdmin = nextEvent<ShowAlertEvent>(adminDeltas, 'showAlert', (a) => a.index === deviceA.id);
      t += 1;
      await send(deviceA.id, LAT, LNG, t);
      t += 1;
      await send(deviceA.id, LAT + 0.01, LNG, t);
      await shownToAdmin;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(seenByOfficer.alerts.slice(before).filter((a) => a.index === deviceA.id)).toEqual([]);
      expect(seenByOfficer.changes.slice(changesBefore).some((c) => deviceA.id in c.changed)).toBe(false);
      expect(seenByAdmin.changes.some((c) => c.changed[deviceA.id]?.latitude === LAT + 0.01)).toBe(true);
    } finally {
      officerDeltas.disconnect();
      officerFullSet.disconnect();
      adminDeltas.disconnect();
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fence}`);
    }
  });
});
