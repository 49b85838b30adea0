// The question: a subject (a prisoner or a staff member by number, or a place: type it or click the map), the window
// and the radius. Checked here in plain words before it is asked; the server checks it again.
import { useState, type FormEvent } from 'react';
import { NEAR_MAX_WINDOW_DAYS, NEAR_RADIUS_MAX_M, NEAR_RADIUS_MIN_M } from '@prison/shared/investigations';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { toLocalInput } from './local-time';
import type { NearQuestion, Subject } from './near-params';

const KINDS = ['Prisoner', 'Staff member', 'Place'] as const;
type Kind = (typeof KINDS)[number];
const kindOf = (subject: Subject | null): Kind => (subject?.kind === 'staff' ? 'Staff member' : subject?.kind === 'place' ? 'Place' : 'Prisoner');

export interface NearDraft {
  subject: Subject | null;
  from: string;
  to: string;
  radiusM: number;
}

export function NearForm({ draft, onAsk }: { draft: NearDraft; onAsk(question: NearQuestion): void }) {
  const [kind, setKind] = useState<Kind>(kindOf(draft.subject));
  const [personId, setPersonId] = useState(draft.subject && draft.subject.kind !== 'place' ? String(draft.subject.id) : '');
  const [lat, setLat] = useState(draft.subject?.kind === 'place' ? String(draft.subject.lat) : '');
  const [lng, setLng] = useState(draft.subject?.kind === 'place' ? String(draft.subject.lng) : '');
  const [from, setFrom] = useState(toLocalInput(draft.from));
  const [to, setTo] = useState(toLocalInput(draft.to));
  const [radius, setRadius] = useState(String(draft.radiusM));
  const [error, setError] = useState<string | null>(null);

  // A click on the map picks a place: the parent passes it in as the draft's subject.
  const [seenPlace, setSeenPlace] = useState(draft.subject);
  if (draft.subject !== seenPlace) {
    setSeenPlace(draft.subject);
    if (draft.subject?.kind === 'place') {
      setKind('Place');
      setLat(String(draft.subject.lat));
      setLng(String(draft.subject.lng));
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let subject: Subject;
    if (kind === 'Place') {
      const la = Number(lat);
      const ln = Number(lng);
      if (lat.trim() === '' || lng.trim() === '' || !(Math.abs(la) <= 90) || !(Math.abs(ln) <= 180))
        return setError('Enter the place as a latitude and a longitude, or click the map.');
      subject = { kind: 'place', lat: la, lng: ln };
    } else {
      const id = Number(personId);
      if (!/^\d{1,9}$/.test(personId) || id < 1) return setError(`Enter the ${kind === 'Prisoner' ? 'prisoner' : 'staff'} number.`);
      subject = { kind: kind === 'Prisoner' ? 'prisoner' : 'staff', id };
    }
    const start = new Date(from);
    const end = new Date(to);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return setError('Enter both the start and the end.');
    if (start >= end) return setError('The end must be after the start.');
    if (end.getTime() - start.getTime() > NEAR_MAX_WINDOW_DAYS * 86_400_000) return setError(`The window may span at most ${NEAR_MAX_WINDOW_DAYS} days.`);
    const r = Number(radius);
    if (!Number.isInteger(r) || r < NEAR_RADIUS_MIN_M || r > NEAR_RADIUS_MAX_M)
      return setError(`The radius is a whole number of metres from ${NEAR_RADIUS_MIN_M} to ${NEAR_RADIUS_MAX_M}.`);
    setError(null);
    onAsk({ subject, from: start.toISOString(), to: end.toISOString(), radiusM: r });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3 print:hidden" aria-label="Who was near">
      <SelectField label="Subject" options={KINDS} value={kind} onChange={(e) => setKind(e.target.value as Kind)} />
      {kind === 'Place' ? (
        <div className="grid grid-cols-2 gap-2">
          <TextField label="Latitude" inputMode="decimal" value={lat} onChange={(e) => setLat(e.target.value)} hint="or click the map" />
          <TextField label="Longitude" inputMode="decimal" value={lng} onChange={(e) => setLng(e.target.value)} />
        </div>
      ) : (
        <TextField label={kind === 'Prisoner' ? 'Prisoner number' : 'Staff number'} inputMode="numeric" value={personId} onChange={(e) => setPersonId(e.target.value)} />
      )}
      <TextField label="From" type="datetime-local" step="1" value={from} onChange={(e) => setFrom(e.target.value)} />
      <TextField label="To" type="datetime-local" step="1" value={to} onChange={(e) => setTo(e.target.value)} />
      <TextField label="Radius (m)" type="number" min={NEAR_RADIUS_MIN_M} max={NEAR_RADIUS_MAX_M} value={radius} onChange={(e) => setRadius(e.target.value)} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit">Find who was near</Button>
    </form>
  );
}
