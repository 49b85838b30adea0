// "Show on map" of an alert: the live map centred on its tracker; an officer's SOS also names the alert, so the map
// marks the nearest staff it named (decision 072).
import type { AlertRecord } from '@prison/shared/alert';

export function liveMapLink(alert: Pick<AlertRecord, 'id' | 'nearby_staff'> & { device_id: string }): string {
  const device = `/live-map?device=${encodeURIComponent(alert.device_id)}`;
  return alert.nearby_staff ? `${device}&alert=${alert.id}` : device;
}
