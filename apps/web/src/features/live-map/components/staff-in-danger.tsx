// An officer's SOS opened on the live map (decision 072): the officer in need and the nearest other
// staff the alert named are marked on the map (map/staff-assist-layer), and a box beside the map lists them with their
// distance at the alarm, each with a button that brings him into view; "Hide" takes the marks away.
import { useEffect, useMemo, useRef } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { LiveMapStaffInDanger } from '@prison/shared/alert';
import { Button } from '../../../components/ui/button';
import { MapControl } from '../../../map/map-control';
import { StaffAssistLayer, nearestStaffLabel, type StaffAssistPerson } from '../../../map/staff-assist-layer';

/** The officer's name: from his live position, else from the alert's own words ("Officer NAME needs assistance"). */
export function officerNameOf(alert: LiveMapStaffInDanger, liveName: string | undefined): string {
  return liveName ?? /^Officer (.+?) needs assistance/.exec(alert.details)?.[1] ?? alert.device_id;
}

export function StaffInDanger({
  alert,
  officerName,
  positionOf,
  fit,
  onHide,
}: {
  alert: LiveMapStaffInDanger;
  officerName: string;
  positionOf: (id: string) => L.LatLng | null;
  /** Opened from a link (the Critical bar, an alert card): bring the officer and the nearest into view once. */
  fit: boolean;
  onHide: () => void;
}) {
  const map = useMap();
  const nearest = useMemo<StaffAssistPerson[]>(
    () => alert.nearby_staff.map((staff) => ({ id: staff.device_id, name: staff.name, metres: staff.metres })),
    [alert.nearby_staff],
  );
  const officer = useMemo(() => ({ id: alert.device_id, name: officerName }), [alert.device_id, officerName]);

  // The markers arrive with the feed's snapshot: fit as soon as the officer's is there (the page re-renders then).
  const fitted = useRef(false);
  useEffect(() => {
    if (!fit || fitted.current) return;
    const at = positionOf(officer.id);
    if (!at) return;
    fitted.current = true;
    const points = [at, ...nearest.map((person) => positionOf(person.id)).filter((p): p is L.LatLng => p !== null)];
    map.fitBounds(L.latLngBounds(points), { padding: [60, 60], maxZoom: 18 });
  });

  const show = (id: string) => {
    const at = positionOf(id);
    if (at) map.setView(at, Math.max(map.getZoom(), 17));
  };

  return (
    <>
      <StaffAssistLayer officer={officer} nearest={nearest} positionOf={positionOf} />
      <MapControl position="bottomright">
        <section
          aria-labelledby="staff-in-danger-title"
          className="max-w-[16rem] rounded border-l-4 border-red-700 bg-white p-2 text-sm text-slate-950 shadow"
          data-testid="staff-in-danger"
          data-alert-id={alert.alert_id}
        >
          <h2 id="staff-in-danger-title" className="font-semibold text-red-800">
            Officer {officerName} needs assistance
          </h2>
          <p className="text-xs text-slate-700">
            {nearest.length ? 'Nearest staff at the alarm:' : 'No other staff tracker was online.'}
          </p>
          <ol className="mt-1 flex flex-col gap-0.5">
            {nearest.map((person, index) => {
              const onMap = positionOf(person.id) !== null;
              return (
                <li key={person.id} className="flex items-center justify-between gap-2" data-testid="staff-in-danger-nearest">
                  <span>
                    {nearestStaffLabel(person, index + 1)}
                    {!onMap && <span className="text-xs text-slate-700"> (not on the map)</span>}
                  </span>
                  {onMap && (
                    <Button size="sm" variant="secondary" onClick={() => show(person.id)} aria-label={`Show ${person.name} on the map`}>
                      Show
                    </Button>
                  )}
                </li>
              );
            })}
          </ol>
          <div className="mt-1 flex justify-end gap-2">
            <Button size="sm" variant="secondary" onClick={() => show(officer.id)} aria-label={`Show Officer ${officerName} on the map`}>
              Officer
            </Button>
            <Button size="sm" variant="secondary" onClick={onHide}>
              Hide
            </Button>
          </div>
        </section>
      </MapControl>
    </>
  );
}
