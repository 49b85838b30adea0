// Prisoners (SPEC.md sections 3 and 7; DECISIONS.md items 7 to 9).
import { z } from 'zod';
import { GENDERS, PRISONER_STATUSES } from './constants';
import { pageQuery } from './api';
import { isCountryName } from './countries';
import { boundedText, isoDate, nameText, pastDate } from './text';

const optionalText = (max = 5000) => boundedText(max, { multiline: true }).nullable().optional();

/** A prisoner as every endpoint returns it. `cell_block` and `tracking_device_name` are joined for the details screen. */
export const prisoner = z.object({
  prisoner_id: z.number().int(),
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
  created_at: z.string(),
  updated_at: z.string(),
});
export type Prisoner = z.infer<typeof prisoner>;

/**
 * The create form sends whatever is filled in (SPEC.md section 5), so every field may be empty;
 * what is filled in must be valid (the server answers 400 naming the field otherwise).
 */
export const prisonerInput = z.object({
  first_name: nameText(100).optional(),
  last_name: nameText(100).optional(),
  date_of_birth: pastDate.nullable().optional(),
  gender: z.enum(GENDERS, { message: `gender must be one of ${GENDERS.join(', ')}` }).nullable().optional(),
  national_id: z
    .string()
    .refine(isCountryName, 'national_id must be a country name from the country list')
    .nullable()
    .optional(),
  entry_date: isoDate.nullable().optional(),
  release_date: isoDate.nullable().optional(),
  status: z.enum(PRISONER_STATUSES, { message: `status must be one of ${PRISONER_STATUSES.join(', ')}` }).nullable().optional(),
  cell_id: boundedText(50).nullable().optional(),
  behavior_record: optionalText(),
  medical_history: optionalText(),
});
export type PrisonerInput = z.infer<typeof prisonerInput>;

export const prisonerListQuery = pageQuery.extend({
  /** Free-text search over first name, last name, national_id, cell and id. */
  q: boundedText(100).optional(),
  first_name: boundedText(100).optional(),
  last_name: boundedText(100).optional(),
  status: z.enum(PRISONER_STATUSES).optional(),
});
export type PrisonerListQuery = z.infer<typeof prisonerListQuery>;

export const prisonerListResponse = z.object({
  prisoners: z.array(prisoner),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalPrisoners: z.number().int(),
});
export type PrisonerListResponse = z.infer<typeof prisonerListResponse>;

/** GET /prisoner/prisonerid/{id} answers { data: prisoner } (SPEC.md: the client reads data.data). */
export const prisonerEnvelope = z.object({ data: prisoner });
