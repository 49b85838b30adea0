import { describe, expect, it } from 'vitest';
import type { Device } from '@prison/shared/device';
import { liveDevice } from './live-device';

const T0 = Date.parse('2030-01-01T12:00:00Z');
const device = (over: Partial<Device> = {}): Device => ({
  id: 'tag-1',
  name: 'Tag',
  prisoner_id: 7,
  prisoner_name: 'Ann Lee',
  last_seen_at: new Date(T0).toISOString(),
  last_fix_at: new Date(T0 - 5_000).toISOString(),
  last_battery: 80,
  online: true,
  latitude: 51.5,
  longitude: -0.1,
  ...over,
});
const location = { id: 'tag-1', prisonerId: 7, name: 'Ann Lee', trackingId: 'tag-1', latitude: 51.6, longitude: -0.2 };

describe('liveDevice', () => {
  it('reads the stored record: position, fix time (not the receive time) and online', () => {
    const live = liveDevice(device(), null, T0, T0 + 1_000, 120);
    expect(live).toMatchObject({ online: true, position: { latitude: 51.5, longitude: -0.1, fixAt: T0 - 5_000 } });
  });

  it('an event newer than the record moves the position and turns the tracker online', () => {
    const override = { deviceId: 'tag-1', receivedAt: T0 + 2_000, location: { ...location, at: new Date(T0 + 1_500).toISOString() } };
    const live = liveDevice(device({ online: false }), override, T0, T0 + 3_000, 120);
    expect(live).toMatchObject({ online: true, position: { latitude: 51.6, longitude: -0.2, fixAt: T0 + 1_500 } });
  });

  it('a device gone from the live set is offline at its last known position', () => {
    const live = liveDevice(device(), { deviceId: 'tag-1', receivedAt: T0 + 2_000, location: null }, T0, T0 + 3_000, 120);
    expect(live).toMatchObject({ online: false, position: { latitude: 51.5, longitude: -0.1 } });
  });

  it('a record fetched after the event wins over it; an event of another device is ignored', () => {
    const stale = { deviceId: 'tag-1', receivedAt: T0 - 1_000, location };
    expect(liveDevice(device(), stale, T0, T0, 120).position).toMatchObject({ latitude: 51.5 });
    const other = { deviceId: 'tag-2', receivedAt: T0 + 1_000, location };
    expect(liveDevice(device(), other, T0, T0 + 1_000, 120).position).toMatchObject({ latitude: 51.5 });
  });

  it('nothing is shown online past the offline threshold, whatever the last word was', () => {
    expect(liveDevice(device(), null, T0, T0 + 119_000, 120).online).toBe(true);
    expect(liveDevice(device(), null, T0, T0 + 121_000, 120).online).toBe(false);
  });
});
