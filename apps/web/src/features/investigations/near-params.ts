// The near screen's question as it stands in the URL (/investigations/near?subject=prisoner:ID|staff:ID|place:LAT,LNG
// &from=ISO&to=ISO&radius_m=R): the incident page links here with it, and every search writes it back.

export type Subject = { kind: 'prisoner' | 'staff'; id: number } | { kind: 'place'; lat: number; lng: number };

export interface NearQuestion {
  subject: Subject;
  from: string;
  to: string;
  radiusM: number;
}

const PERSON = /^(prisoner|staff):(\d{1,9})$/;
const PLACE = /^place:(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/;

export function parseSubject(value: string | null): Subject | null {
  if (!value) return null;
  const person = PERSON.exec(value);
  if (person) return Number(person[2]) > 0 ? { kind: person[1] as 'prisoner' | 'staff', id: Number(person[2]) } : null;
  const place = PLACE.exec(value);
  if (!place) return null;
  const lat = Number(place[1]);
  const lng = Number(place[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { kind: 'place', lat, lng } : null;
}

export function subjectText(subject: Subject): string {
  return subject.kind === 'place' ? `place:${subject.lat},${subject.lng}` : `${subject.kind}:${subject.id}`;
}

/** How the subject is named on the screen and in the report. */
export function subjectLabel(subject: Subject): string {
  if (subject.kind === 'place') return `Place ${subject.lat.toFixed(6)}, ${subject.lng.toFixed(6)}`;
  return subject.kind === 'prisoner' ? `Prisoner #${subject.id}` : `Staff member #${subject.id}`;
}

const isInstant = (value: string | null): value is string => !!value && !Number.isNaN(Date.parse(value));

/** The question the URL asks, filling in what it leaves out: the last hour, 10 m. Null without a subject. */
export function questionFromParams(params: URLSearchParams, now = Date.now()): { question: NearQuestion | null; draft: Omit<NearQuestion, 'subject'> & { subject: Subject | null } } {
  const subject = parseSubject(params.get('subject'));
  const to = isInstant(params.get('to')) ? new Date(params.get('to')!).toISOString() : new Date(now).toISOString();
  const from = isInstant(params.get('from')) ? new Date(params.get('from')!).toISOString() : new Date(Date.parse(to) - 3_600_000).toISOString();
  const radius = Number(params.get('radius_m'));
  const radiusM = Number.isInteger(radius) && radius >= 1 && radius <= 100 ? radius : 10;
  const draft = { subject, from, to, radiusM };
  return { question: subject ? { ...draft, subject } : null, draft };
}

export function paramsOf(question: NearQuestion): URLSearchParams {
  return new URLSearchParams({ subject: subjectText(question.subject), from: question.from, to: question.to, radius_m: String(question.radiusM) });
}

/** The API's query for GET /location/near. */
export function nearApiQuery(question: NearQuestion): Record<string, string | number> {
  const window = { from: question.from, to: question.to, radius_m: question.radiusM };
  const s = question.subject;
  if (s.kind === 'place') return { ...window, lat: s.lat, lng: s.lng };
  return { ...window, [s.kind === 'prisoner' ? 'prisoner_id' : 'staff_id']: s.id };
}
