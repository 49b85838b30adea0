// The geofences as a list: keyboard access to the same selection a click on the map gives. A geofence for some
// prisoners or at some times shows its rules under its name ("Mon-Fri 09:00-17:00 · Block A").
import { describeGeofenceRules, geofenceColor, type Geofence } from '@prison/shared/geofence';
import { clsx } from 'clsx';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { usePendingChanges } from '../api/pending-changes';
import { useAssignedDevices } from '../api/tracked-prisoners';

export function GeofenceList({
  geofences,
  selectedId,
  onSelect,
}: {
  geofences: Geofence[];
  selectedId: string | null;
  onSelect(id: string): void;
}) {
  const devices = useAssignedDevices();
  // Names are not unique: the id and the cell stand beside each (decision 025).
  const names = new Map(
    (devices.data ?? []).map((d) => [
      d.prisoner_id,
      prisonerLabel({ name: d.prisoner_name ?? '', prisonerId: d.prisoner_id, cellId: d.prisoner_cell_id }),
    ]),
  );
  const nameOf = (id: number) => names.get(id);
  const pendingChanges = usePendingChanges();
  const pendingIds = new Set(
    (pendingChanges.data ?? []).filter((c) => c.target_type === 'geofence').map((c) => c.target_id),
  );
  return (
    <section aria-labelledby="geofence-list-title" className="border-b border-slate-200 p-4">
      <h2 id="geofence-list-title" className="mb-2 font-semibold">
        Geofences ({geofences.length})
      </h2>
      {geofences.length === 0 ? (
        <p className="text-sm text-slate-500">
          No geofences yet. Draw a circle, polygon or rectangle with the tools on the map, or use "Enter coordinates".
        </p>
      ) : (
        <ul className="flex max-h-40 flex-col gap-0.5 overflow-y-auto" aria-label="Geofences">
          {geofences.map((geofence) => {
            const rules = describeGeofenceRules(geofence, nameOf);
            return (
              <li key={geofence.geofence_id}>
                <button
                  type="button"
                  aria-pressed={geofence.geofence_id === selectedId}
                  className={clsx(
                    'flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-slate-100',
                    geofence.geofence_id === selectedId && 'bg-slate-200',
                  )}
                  onClick={() => onSelect(geofence.geofence_id)}
                  data-testid="geofence-item"
                >
                  <span
                    aria-hidden="true"
                    className="h-2.5 w-2.5 shrink-0 rounded-sm"
                    style={{ backgroundColor: geofenceColor(geofence.alert_type) }}
                  />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate">{geofence.name}</span>
                    {rules && (
                      <span className="truncate text-xs text-slate-600" data-testid="geofence-rules" title={rules}>
                        {rules}
                      </span>
                    )}
                    {pendingIds.has(geofence.geofence_id) && (
                      <span className="text-xs font-medium text-amber-800">Change pending approval</span>
                    )}
                  </span>
                  <span className="text-xs text-slate-600">
                    {geofence.type} · {geofence.alert_type}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
