// A tracked device with every field set, for tests and benchmarks that build batches or registries without a database.
import type { TrackedDevice } from './device-registry';

/** An online, unassigned tracker at Westminster that reported at `at`; `fields` set the rest. */
export function trackedDeviceFixture(id: string, at: number, fields: Partial<TrackedDevice> = {}): TrackedDevice {
  return {
    id,
    name: id,
    kind: 'phone',
    secretHash: '',
    secretRequired: false,
    prisonerId: null,
    prisonerName: null,
    cellId: null,
    block: null,
    staffId: null,
    staffName: null,
    lastSeenAt: at,
    lastFixAt: at,
    latitude: 51.5,
    longitude: -0.12,
    battery: 80,
    online: true,
    lowBatteryAlerted: false,
    revision: 0,
    ...fields,
  };
}
