// A batch's statements cost what its own devices cost, not what the tables hold (decision 077): PostgreSQL guesses
// 100 rows for a JSON parameter, which once made it read every device (and every geofence) for each batch.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine } from '../../../test/test-db';
import type { Database, Tx } from '../../db/client';
import { trackedDeviceFixture } from '../tracked-device-fixture';
import { trackingPorts } from '../../composition';
import { applyGeofenceEvents, writeFixes } from './persist';

const DEVICES = 20_000;
const GEOFENCES = 2_000;

/** Sequential scans of a table by this transaction so far. */
async function seqScans(tx: Tx, table: string): Promise<number> {
  const result = (await tx.execute(sql`select coalesce(seq_scan, 0)::int as n from pg_stat_xact_user_tables where relname = ${table}`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

describeEachEngine('persist', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('stores a batch of three devices among thousands without reading every device or geofence', async () => {
    const rolledBack = new Error('rolled back on purpose');
    const result = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into devices (id, name, secret_hash) select 'seq-' || g, 'Seq ' || g, '' from generate_series(1, ${DEVICES}::int) as g`);
        await tx.execute(sql`insert into geofences (geofence_id, name, shape, type, alert_type, radius, center_lat, center_lng)
          select 'seq-fence-' || g, 'Zone ' || g, 'Circle', 'Positive', 'Warning', 50, 51.5, -0.12 from generate_series(1, ${GEOFENCES}::int) as g`);
        const now = Date.now();
        const ids = ['seq-17', 'seq-4242', 'seq-19999'];
        const devicesBefore = await seqScans(tx, 'devices');
        const fencesBefore = await seqScans(tx, 'geofences');
        const stored = await writeFixes(
          tx,
          trackingPorts.alerts,
          ids.map((deviceId, i) => ({ deviceId, recordedAt: new Date(now - i), receivedAt: new Date(now), latitude: 51.5, longitude: -0.12 })),
          ids.map((id) => trackedDeviceFixture(id, now)),
          new Set(),
          new Date(now),
        );
        await applyGeofenceEvents(
          tx,
          trackingPorts.alerts,
          ids.map((deviceId) => ({ kind: 'end' as const, deviceId, geofenceId: 'seq-fence-7', at: new Date(now) })),
          [],
        );
        const deviceScans = (await seqScans(tx, 'devices')) - devicesBefore;
        const geofenceScans = (await seqScans(tx, 'geofences')) - fencesBefore;
        const states = (await tx.execute(sql`select count(*)::int as n from geofence_states where geofence_id = 'seq-fence-7'`)) as unknown as { rows: { n: number }[] };
        const seen = (await tx.execute(sql`select count(*)::int as n from devices where id like 'seq-%' and last_fix_at is not null`)) as unknown as { rows: { n: number }[] };
        throw Object.assign(rolledBack, {
          found: {
            stored: stored.keys.size,
            states: states.rows[0]!.n,
            devicesUpdated: seen.rows[0]!.n,
            deviceScans,
            geofenceScans,
          },
        });
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
        return (error as Error & { found: Record<string, number> }).found;
      });
    expect(result).toMatchObject({ stored: 3, states: 3, devicesUpdated: 3 });
    // PGlite keeps no statistics views of a transaction; the plans are PostgreSQL's concern.
    if (engine === 'postgres') expect(result).toMatchObject({ deviceScans: 0, geofenceScans: 0 });
  });
});
