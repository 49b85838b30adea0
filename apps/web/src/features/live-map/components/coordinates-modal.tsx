// "Enter coordinates": the keyboard's way to make a geofence (drawing on the map needs a mouse). The shape is
// typed in, checked here with messages naming the field, then goes on to "Enter Geofence Details" as a drawn one does.
import { useId, useState, type FormEvent } from 'react';
import type { GeofenceShape } from '@prison/shared/constants';
import { normalizeRing, polygonEdgesCross, rectangleCorners } from '@prison/shared/geo/polygon';
import {
  GEOFENCE_MAX_POINTS,
  GEOFENCE_MAX_RADIUS,
  GEOFENCE_MIN_RADIUS,
  toGeoPoint,
  type LatLngTuple,
} from '@prison/shared/geofence';
import { Modal } from '../../../components/ui/modal';
import { Button } from '../../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import type { DrawnGeometry } from '../../../map/drawn-shape';

const SHAPES: readonly GeofenceShape[] = ['Circle', 'Rectangle', 'Polygon'];

/** Offsets of the prefilled shapes from the map centre, in degrees (about 110 m of latitude). */
const SPAN = 0.001;

type Field = 'lat' | 'lng' | 'radius' | 'lat1' | 'lng1' | 'lat2' | 'lng2' | 'points';
type Errors = Partial<Record<Field, string>>;

const format = (value: number) => String(Number(value.toFixed(6)));
const formatPoint = ([lat, lng]: LatLngTuple) => `${format(lat)}, ${format(lng)}`;
const triangle = (lat: number, lng: number): LatLngTuple[] => [
  [lat + SPAN, lng],
  [lat - SPAN, lng + SPAN * 1.5],
  [lat - SPAN, lng - SPAN * 1.5],
];

/** A number typed into a field, or null when the text is not one. */
function parseNumber(text: string): number | null {
  // Plain decimal only: Number() would also read "0x33" as 51 or "1e3" as 1000.
  const trimmed = text.trim();
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : null;
}

function checkLatitude(label: string, text: string): [number | null, string | undefined] {
  const value = parseNumber(text);
  if (value === null || value < -90 || value > 90) return [null, `${label} must be a number between -90 and 90`];
  return [value, undefined];
}

function checkLongitude(label: string, text: string): [number | null, string | undefined] {
  const value = parseNumber(text);
  if (value === null || value < -180 || value > 180) return [null, `${label} must be a number between -180 and 180`];
  return [value, undefined];
}

/** One "latitude, longitude" per line (commas, semicolons or spaces between them); empty lines are skipped. */
function parsePoints(text: string): { points: LatLngTuple[] } | { error: string } {
  const points: LatLngTuple[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const parts = line.split(/[\s,;]+/).filter(Boolean);
    const lat = parts.length === 2 ? parseNumber(parts[0]!) : null;
    const lng = parts.length === 2 ? parseNumber(parts[1]!) : null;
    if (lat === null || lng === null) return { error: `Points: line ${index + 1} must be "latitude, longitude"` };
    if (lat < -90 || lat > 90) return { error: `Points: line ${index + 1}: latitude must be between -90 and 90` };
    if (lng < -180 || lng > 180) return { error: `Points: line ${index + 1}: longitude must be between -180 and 180` };
    points.push([lat, lng]);
  }
  return { points };
}

interface CoordinatesModalProps {
  /** The map centre when the dialog opened: the prefilled shapes sit around it. */
  center: { lat: number; lng: number };
  onCancel(): void;
  onContinue(geometry: DrawnGeometry): void;
}

export function CoordinatesModal({ center, onCancel, onContinue }: CoordinatesModalProps) {
  const { lat, lng } = center;
  const [shape, setShape] = useState<GeofenceShape>('Circle');
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    lat: format(lat),
    lng: format(lng),
    radius: '100',
    lat1: format(lat - SPAN),
    lng1: format(lng - SPAN * 1.5),
    lat2: format(lat + SPAN),
    lng2: format(lng + SPAN * 1.5),
    points: triangle(lat, lng).map(formatPoint).join('\n'),
  }));
  const [errors, setErrors] = useState<Errors>({});
  const pointsId = useId();

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const numberField = (field: Field, label: string) => (
    <TextField
      label={label}
      name={field}
      inputMode="decimal"
      autoComplete="off"
      value={values[field]}
      error={errors[field]}
      onChange={set(field)}
    />
  );

  /** The typed shape, or the errors to show. */
  function check(): DrawnGeometry | Errors {
    if (shape === 'Circle') {
      const [centerLat, latError] = checkLatitude('Centre latitude', values.lat);
      const [centerLng, lngError] = checkLongitude('Centre longitude', values.lng);
      const radius = parseNumber(values.radius);
      const radiusError =
        radius === null || radius <= 0
          ? 'Radius must be a positive number of metres'
          : radius < GEOFENCE_MIN_RADIUS || radius > GEOFENCE_MAX_RADIUS
            ? `Radius must be between ${GEOFENCE_MIN_RADIUS} and ${GEOFENCE_MAX_RADIUS.toLocaleString('en-GB')} metres`
            : undefined;
      if (latError || lngError || radiusError) return { lat: latError, lng: lngError, radius: radiusError };
      return { shape, center_lat: centerLat!, center_lng: centerLng!, radius: radius! };
    }
    if (shape === 'Rectangle') {
      const [lat1, lat1Error] = checkLatitude('Corner 1 latitude', values.lat1);
      const [lng1, lng1Error] = checkLongitude('Corner 1 longitude', values.lng1);
      let [lat2, lat2Error] = checkLatitude('Corner 2 latitude', values.lat2);
      let [lng2, lng2Error] = checkLongitude('Corner 2 longitude', values.lng2);
      if (!lat2Error && lat2 === lat1) [lat2, lat2Error] = [null, 'Corner 2 latitude must differ from corner 1'];
      if (!lng2Error && lng2 === lng1) [lng2, lng2Error] = [null, 'Corner 2 longitude must differ from corner 1'];
      if (lat1Error || lng1Error || lat2Error || lng2Error) {
        return { lat1: lat1Error, lng1: lng1Error, lat2: lat2Error, lng2: lng2Error };
      }
      const [south, north] = [Math.min(lat1!, lat2!), Math.max(lat1!, lat2!)];
      const [west, east] = [Math.min(lng1!, lng2!), Math.max(lng1!, lng2!)];
      return { shape, coordinates: rectangleCorners(south, west, north, east).map(toGeoPoint) };
    }
    const parsed = parsePoints(values.points);
    if ('error' in parsed) return { points: parsed.error };
    // The drawing tool's rules (docs/CLIENT-CONTRACT.md): at least 3 points, edges that do not cross.
    const ring = normalizeRing(parsed.points);
    if (ring.length < 3) return { points: 'Points: a polygon needs at least 3 points' };
    if (parsed.points.length > GEOFENCE_MAX_POINTS) {
      return { points: `Points: a polygon may have at most ${GEOFENCE_MAX_POINTS.toLocaleString('en-GB')} points` };
    }
    if (polygonEdgesCross(ring)) return { points: 'Points: shape edges cannot cross' };
    return { shape, coordinates: parsed.points.map(toGeoPoint) };
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = check();
    if ('shape' in result) return onContinue(result);
    setErrors(result);
    // Focus goes to the first field in error (the errors are listed in the order of the fields).
    const first = (Object.keys(result) as Field[]).find((field) => result[field]);
    const control = first && event.currentTarget.elements.namedItem(first);
    if (control instanceof HTMLElement) control.focus();
  };

  return (
    <Modal
      open
      onOpenChange={(next) => !next && onCancel()}
      title="Enter Coordinates"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" form="geofence-coordinates-form">
            Continue
          </Button>
        </>
      }
    >
      <form id="geofence-coordinates-form" className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <SelectField
          label="Shape"
          name="shape"
          options={SHAPES}
          value={shape}
          autoFocus
          onChange={(event) => {
            setShape(event.target.value as GeofenceShape);
            setErrors({});
          }}
        />
        {shape === 'Circle' && (
          <div className="grid grid-cols-2 gap-3">
            {numberField('lat', 'Centre latitude')}
            {numberField('lng', 'Centre longitude')}
            {numberField('radius', 'Radius (metres)')}
          </div>
        )}
        {shape === 'Rectangle' && (
          <div className="grid grid-cols-2 gap-3">
            {numberField('lat1', 'Corner 1 latitude')}
            {numberField('lng1', 'Corner 1 longitude')}
            {numberField('lat2', 'Corner 2 latitude')}
            {numberField('lng2', 'Corner 2 longitude')}
          </div>
        )}
        {shape === 'Polygon' && (
          <TextAreaField
            id={pointsId}
            label='Points (one "latitude, longitude" per line, at least 3)'
            rows={6}
            spellCheck={false}
            name="points"
            value={values.points}
            error={errors.points}
            aria-describedby={errors.points ? `${pointsId}-error` : undefined}
            onChange={set('points')}
          />
        )}
      </form>
    </Modal>
  );
}
