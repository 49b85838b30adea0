import { describe, expect, it } from 'vitest';
import { liveMapLink } from './live-map-link';

describe('liveMapLink', () => {
  it('names the tracker, and the alert too when it is an officer SOS with the nearest staff (decision 072)', () => {
    expect(liveMapLink({ id: 7, device_id: 'tag 1' })).toBe('/live-map?device=tag%201');
    expect(liveMapLink({ id: 7, device_id: 'radio-2', nearby_staff: [] })).toBe('/live-map?device=radio-2&alert=7');
  });
});
