// Investigations: everyone at a moment, who was near a person or a place, and the contacts of a pair,
// all answered from the stored fixes (decision 068).
import { z } from 'zod';
import { intText, isoInstant } from './text';

/** The radius a near or contacts question may ask, in metres. */
export const NEAR_RADIUS_MIN_M = 1;
export const NEAR_RADIUS_MAX_M = 100;
/** The longest window one question may span. */
export const NEAR_MAX_WINDOW_DAYS = 7;
/**
 * Two people's fixes are compared when they were taken at most this far apart (decision 068): a tracker reports at
 * least every 60 s while it moves, so every fix of one person meets a fix of the other.
 */
export const NEAR_MATCH_SECONDS = 30;
/** Contacts closer in time than this are one contact (one meeting, several fixes). */
export const CONTACT_GAP_SECONDS = 60;

/** A decimal number in a query string, within bounds. */
function decimalText(min: number, max: number) {
  return z
    .string({ message: 'must be a number' })
    .regex(/^[+-]?\d{1,3}(\.\d{1,17})?$/, 'must be a decimal number')
    .transform(Number)
    .pipe(z.number().min(min, `must be ${min} or more`).max(max, `must be at most ${max}`));
}

/** The window is ordered and at most NEAR_MAX_WINDOW_DAYS long; an issue names `to`. */
function checkWindow(value: { from: string; to: string }, ctx: z.RefinementCtx) {
  const from = Date.parse(value.from);
  const to = Date.parse(value.to);
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
  else if (to - from > NEAR_MAX_WINDOW_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the window may span at most ${NEAR_MAX_WINDOW_DAYS} days` });
  }
}

const windowAndRadius = {
  from: isoInstant(),
  to: isoInstant(),
  radius_m: intText(NEAR_RADIUS_MIN_M, NEAR_RADIUS_MAX_M),
};

/** Who was near: one subject, a prisoner, a staff member or a place (lat + lng). */
export const nearQuery = z
  .object({
    ...windowAndRadius,
    prisoner_id: intText().optional(),
    staff_id: intText().optional(),
    lat: decimalText(-90, 90).optional(),
    lng: decimalText(-180, 180).optional(),
  })
  .superRefine((value, ctx) => {
    const subjects = [value.prisoner_id !== undefined, value.staff_id !== undefined, value.lat !== undefined || value.lng !== undefined];
    if (subjects.filter(Boolean).length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['prisoner_id'], message: 'name one subject: prisoner_id, staff_id, or lat and lng' });
    } else if ((value.lat === undefined) !== (value.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [value.lat === undefined ? 'lat' : 'lng'], message: 'a place needs both lat and lng' });
    }
    checkWindow(value, ctx);
  });
export type NearQuery = z.infer<typeof nearQuery>;

/** A person in a question: `prisoner:ID` or `staff:ID`. */
export const PERSON_PATTERN = /^(prisoner|staff):(\d{1,9})$/;
export type PersonKind = 'prisoner' | 'staff';
export interface PersonRef {
  kind: PersonKind;
  id: number;
}
const personRef = z
  .string({ message: 'must be prisoner:ID or staff:ID' })
  .regex(PERSON_PATTERN, 'must be prisoner:ID or staff:ID')
  .transform((value): PersonRef => {
    const [, kind, id] = PERSON_PATTERN.exec(value)!;
    return { kind: kind as PersonKind, id: Number(id) };
  })
  .refine((person) => person.id >= 1 && person.id <= 2_147_483_647, 'must name an id from 1 to 2147483647');

/** The contacts of a pair: every time a and b were within radius_m. */
export const contactsQuery = z
  .object({ ...windowAndRadius, a: personRef, b: personRef })
  .superRefine((value, ctx) => {
    if (value.a.kind === value.b.kind && value.a.id === value.b.id) {
      ctx.addIssue({ code: 'custom', path: ['b'], message: 'b must be another person than a' });
    }
    checkWindow(value, ctx);
  });
export type ContactsQuery = z.infer<typeof contactsQuery>;

export const snapshotQuery = z.object({ at: isoInstant() });
export type SnapshotQuery = z.infer<typeof snapshotQuery>;

/** Who wore the tracker at the time: a prisoner, a staff member, or nobody (both null). */
const wearer = {
  prisoner_id: z.number().int().nullable(),
  staff_id: z.number().int().nullable(),
};

export const snapshotEntry = z.object({
  device_id: z.string(),
  ...wearer,
  latitude: z.number(),
  longitude: z.number(),
  /** ISO instant of the fix. */
  at: z.string(),
});
export type SnapshotEntry = z.infer<typeof snapshotEntry>;
export const snapshotResponse = z.object({ data: z.array(snapshotEntry) });
export type SnapshotResponse = z.infer<typeof snapshotResponse>;

export const nearEntry = z.object({
  ...wearer,
  /** The name of the person, for the table and the report. */
  name: z.string(),
  /** A prisoner's prison number, beside his name (decision 101); null for staff. */
  prison_number: z.string().nullable().optional(),
  first_at: z.string(),
  last_at: z.string(),
  min_distance_m: z.number(),
  /** How many of this person's fixes were within the radius. */
  fixes: z.number().int(),
  /** Where this person was at the closest approach. */
  closest: z.object({ at: z.string(), latitude: z.number(), longitude: z.number() }),
});
export type NearEntry = z.infer<typeof nearEntry>;
export const nearResponse = z.object({
  data: z.array(nearEntry),
  /** The subject's own fixes in the window (a place: none), to draw its track. */
  subject_track: z.array(z.object({ t: z.string(), lat: z.number(), lng: z.number() })),
});
export type NearResponse = z.infer<typeof nearResponse>;

export const contactEntry = z.object({ start_at: z.string(), end_at: z.string(), min_distance_m: z.number(), fixes: z.number().int() });
export type ContactEntry = z.infer<typeof contactEntry>;
export const contactsResponse = z.object({ data: z.array(contactEntry) });
export type ContactsResponse = z.infer<typeof contactsResponse>;
