// The geofence type with its meaning in plain words beside the spec's terms (decision 041): a wrongly
// chosen type silently inverts a rule, so both meanings are always in view.
import { useId } from 'react';
import { GEOFENCE_TYPES, type GeofenceType } from '@prison/shared/constants';
import { GEOFENCE_TYPE_MEANINGS } from '@prison/shared/geofence-change';
import { SelectField } from '../../../components/ui/field';

export function GeofenceTypeField({ value, onChange }: { value: GeofenceType; onChange(type: GeofenceType): void }) {
  const meaningsId = useId();
  return (
    <div className="flex flex-col gap-1">
      <SelectField
        label="Geofence Type"
        name="type"
        required
        options={GEOFENCE_TYPES}
        value={value}
        aria-describedby={meaningsId}
        onChange={(event) => onChange(event.target.value as GeofenceType)}
      />
      <ul id={meaningsId} className="text-xs text-slate-600" data-testid="geofence-type-meanings">
        {GEOFENCE_TYPES.map((type) => (
          <li key={type} className={type === value ? 'font-semibold text-slate-900' : undefined}>
            {GEOFENCE_TYPE_MEANINGS[type]}
          </li>
        ))}
      </ul>
    </div>
  );
}
