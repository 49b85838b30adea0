// The geofences as a list: keyboard access to the same selection a click on the map gives.
import { GEOFENCE_COLORS, type Geofence } from '@prison/shared';
import { clsx } from 'clsx';

export function GeofenceList({
  geofences,
  selectedId,
  onSelect,
}: {
  geofences: Geofence[];
  selectedId: string | null;
  onSelect(id: string): void;
}) {
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
          {geofences.map((geofence) => (
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
                  style={{ backgroundColor: GEOFENCE_COLORS[geofence.shape] }}
                />
                <span className="flex-1 truncate">{geofence.name}</span>
                <span className="text-xs text-slate-600">
                  {geofence.type} · {geofence.alert_type}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
