// Prisoner records: the fields the original client sends and reads (docs/CLIENT-CONTRACT.md), and ours beside them.
import { z } from 'zod';
import { GENDERS, PRISONER_STATUSES } from './constants';
import { pageQuery } from './api';
import { isCountryName } from './countries';
import { REQUIRED, birthDate, boundedText, idText, isoDate, nameText, pastDate } from './text';
import { overrideReason } from './cell-rules';
import { archivedFilter } from './custody-archive';
import { changeReason } from './pending-change';
import { prisonNumber, prisonerFlagKind } from './prisoner-identity';

const optionalText = (max = 5000) => boundedText(max, { multiline: true }).nullable().optional();

/** A prisoner as every endpoint returns it. `cell_block` and `tracking_device_name` are joined for the details screen. */
export const prisoner = z.object({
  prisoner_id: z.number().int(),
  /** The prison's number for him (decision 101): shown with the name everywhere, unique across archived records too. */
  prison_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string().nullable(),
  gender: z.string().nullable(),
  national_id: z.string().nullable(),
  entry_date: z.string().nullable(),
  release_date: z.string().nullable(),
  status: z.string().nullable(),
  cell_id: z.string().nullable(),
  cell_block: z.string().nullable(),
  behavior_record: z.string().nullable(),
  medical_history: z.string().nullable(),
  tracking_device_id: z.string().nullable(),
  tracking_device_name: z.string().nullable(),
  /** Set when the record was deleted through the spec's Delete, which archives (decision 042); null otherwise. */
  archived_at: z.string().nullable(),
  archived_by: z.string().nullable(),
  /** The stored photo's SHA-256 (its version in `prisonerPhotoUrl`); null: no photo, show his initials. */
  photo_digest: z.string().nullable(),
  /** The kinds of his flags in force now, for the badges (decision 101). */
  flags: z.array(prisonerFlagKind),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Prisoner = z.infer<typeof prisoner>;

const prisonerStatus = z.enum(PRISONER_STATUSES, {
  error: (issue) => (issue.input == null ? REQUIRED : `status must be one of ${PRISONER_STATUSES.join(', ')}`),
});

/**
 * The fields every prisoner record must have (decision 023). This goes beyond docs/CLIENT-CONTRACT.md
 * ("no required-field checks"): a blank form made prisoners without a name. An empty or blank text, null or a
 * missing field answers 400 "field: is required".
 */
const requiredFields = {
  first_name: nameText(100).min(1, REQUIRED),
  last_name: nameText(100).min(1, REQUIRED),
  date_of_birth: birthDate,
  status: prisonerStatus,
};

/** Fields that may be empty; what is filled in must be valid (the server answers 400 naming the field otherwise). */
const optionalFields = {
  /** Given by records staff, or assigned by the server when left out (the spec's client sends none). */
  prison_number: prisonNumber.optional(),
  gender: z.enum(GENDERS, { message: `gender must be one of ${GENDERS.join(', ')}` }).nullable().optional(),
  national_id: z
    .string()
    .refine(isCountryName, 'national_id must be a country name from the country list')
    .nullable()
    .optional(),
  /** The day the prisoner came in has happened (a day of slack for time zones, as `pastDate`; decision 043). */
  entry_date: pastDate.nullable().optional(),
  release_date: isoDate.nullable().optional(),
  cell_id: idText(50).nullable().optional(),
  behavior_record: optionalText(),
  medical_history: optionalText(),
  /** Places the prisoner although a rule other than capacity refuses the cell (decision 031); audited, not stored. */
  override_reason: overrideReason,
};

/**
 * An update (PUT /prisoner/update/{id}, docs/CLIENT-CONTRACT.md): the full field set or any single field. A field left out
 * keeps its value; a required field that is sent must be valid, so a full record needs the same fields as a new
 * prisoner and a required field can never be cleared.
 */
export const prisonerInput = z.object({
  first_name: requiredFields.first_name.optional(),
  last_name: requiredFields.last_name.optional(),
  date_of_birth: requiredFields.date_of_birth.optional(),
  status: requiredFields.status.optional(),
  ...optionalFields,
  /** Why, when a cell change lifts an alarm and so waits for a second person's approval (decision 091). */
  reason: changeReason.optional(),
});
export type PrisonerInput = z.infer<typeof prisonerInput>;

/** A new prisoner (POST /prisoner/add): first name, last name, date of birth and status are required. */
export const prisonerCreateInput = z.object({ ...requiredFields, ...optionalFields });
export type PrisonerCreateInput = z.infer<typeof prisonerCreateInput>;

export const prisonerListQuery = pageQuery.extend({
  /** Free-text search over first name, last name, national_id, cell, prison number and id. */
  q: boundedText(100).optional(),
  first_name: boundedText(100).optional(),
  last_name: boundedText(100).optional(),
  status: z.enum(PRISONER_STATUSES).optional(),
  /** `true`: only the archived records (the administrator's "Archived" filter); otherwise only the others. */
  archived: archivedFilter,
});
export type PrisonerListQuery = z.infer<typeof prisonerListQuery>;

export const prisonerListResponse = z.object({
  prisoners: z.array(prisoner),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalPrisoners: z.number().int(),
});
export type PrisonerListResponse = z.infer<typeof prisonerListResponse>;

/** GET /prisoner/prisonerid/{id} answers { data: prisoner } (docs/CLIENT-CONTRACT.md: the client reads data.data). */
export const prisonerEnvelope = z.object({ data: prisoner });
