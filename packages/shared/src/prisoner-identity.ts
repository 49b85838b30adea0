// Who is who (decision 101): the prison number, the photo's limits, and the flags an officer must see before acting.
import { z } from 'zod';
import { boundedText, intText, isoInstant } from './text';

/**
 * A prison number as records staff type it: letters, digits and "-" or "/", at most 20, stored in capitals. When none
 * is given the server assigns the next of the prison's sequence: "A" and at least four digits (A0001, A0002, ...).
 */
export const prisonNumber = boundedText(20)
  .min(1, 'must not be empty: leave it out and the server assigns one')
  .regex(/^[A-Za-z0-9][A-Za-z0-9/-]*$/, 'must be letters and digits (and "-" or "/"), such as A0042')
  .transform((value) => value.toUpperCase());

/** The server's own numbers: "A" and the sequence, zero-padded to four digits. */
export const ASSIGNED_PRISON_NUMBER = /^A\d{4,}$/;

/** A photo upload's limit, before it is resized. */
export const PRISONER_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The stored photo's longest side, in pixels: enough for a details screen, small for lists. */
export const PRISONER_PHOTO_SIDE = 480;

/** A photo's address, with its version so a browser may keep it (a new photo has a new address). */
export const prisonerPhotoUrl = (prisonerId: number, digest: string) => `/api/v1/prisoners/${prisonerId}/photo?v=${digest.slice(0, 16)}`;

export const PRISONER_FLAG_KINDS = ['self_harm', 'escape', 'violence', 'medical'] as const;
export type PrisonerFlagKind = (typeof PRISONER_FLAG_KINDS)[number];
export const prisonerFlagKind = z.enum(PRISONER_FLAG_KINDS, { message: `kind must be one of ${PRISONER_FLAG_KINDS.join(', ')}` });

/** The words of each flag on a badge. */
export const PRISONER_FLAG_LABELS: Record<PrisonerFlagKind, string> = {
  self_harm: 'Self-harm risk',
  escape: 'Escape risk',
  violence: 'Violence risk',
  medical: 'Medical alert',
};

export const prisonerFlag = z.object({
  id: z.number().int(),
  prisoner_id: z.number().int(),
  kind: prisonerFlagKind,
  note: z.string().nullable(),
  set_by: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  cleared_at: z.string().nullable(),
  cleared_by: z.string().nullable(),
  clear_reason: z.string().nullable(),
  /** In force now: started, not ended, not cleared. */
  active: z.boolean(),
});
export type PrisonerFlag = z.infer<typeof prisonerFlag>;
export const prisonerFlagList = z.object({ flags: z.array(prisonerFlag) });

/** POST /prisoners/:id/flags. A medical alert names the condition in its note ("Epilepsy"). */
export const prisonerFlagInput = z
  .object({
    kind: prisonerFlagKind,
    note: boundedText(500, { multiline: true }).nullable().optional(),
    starts_at: isoInstant().nullable().optional(),
    ends_at: isoInstant().nullable().optional(),
  })
  .refine((flag) => !(flag.starts_at && flag.ends_at && new Date(flag.ends_at) <= new Date(flag.starts_at)), {
    message: 'must be after starts_at',
    path: ['ends_at'],
  })
  .refine((flag) => flag.kind !== 'medical' || Boolean(flag.note), { message: 'is required for a medical alert: name the condition', path: ['note'] });
export type PrisonerFlagInput = z.infer<typeof prisonerFlagInput>;

/** POST /prisoners/:id/flags/:flagId/clear: why the flag no longer applies. */
export const prisonerFlagClearInput = z.object({ reason: boundedText(500, { multiline: true }).min(1, 'is required') });
export const prisonerFlagParams = z.object({ id: intText(), flagId: intText() });
