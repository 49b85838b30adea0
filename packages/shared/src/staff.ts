// Police officers and guards (docs/CLIENT-CONTRACT.md).
import { z } from 'zod';
import { DEPARTMENTS, STAFF_ROLES } from './constants';
import { pageQuery } from './api';
import { boundedText, nameText } from './text';
import { archivedFilter } from './custody-archive';

export const staffMember = z.object({
  staff_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(STAFF_ROLES),
  badge_number: z.string(),
  rank: z.string().nullable(),
  department: z.string().nullable(),
  contact_info: z.string().nullable(),
  /** Set when the member was retired (deleted with history, decision 042); null otherwise. */
  archived_at: z.string().nullable(),
  archived_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffInput = z.object({
  first_name: nameText(100).min(1, 'first_name is required'),
  last_name: nameText(100).min(1, 'last_name is required'),
  role: z.enum(STAFF_ROLES, { message: `role must be one of ${STAFF_ROLES.join(', ')}` }),
  badge_number: z.string().trim().regex(/^\d{1,12}$/, 'badge_number must be a number (digits only)'),
  rank: nameText(100).nullable().optional(),
  department: z.enum(DEPARTMENTS, { message: `department must be one of ${DEPARTMENTS.join(', ')}` }).nullable().optional(),
  contact_info: boundedText(200).nullable().optional(),
});
export type StaffInput = z.infer<typeof staffInput>;

export const staffListQuery = pageQuery.extend({
  q: boundedText(100).optional(),
  firstName: boundedText(100).optional(),
  lastName: boundedText(100).optional(),
  rank: boundedText(100).optional(),
  department: z.enum(DEPARTMENTS).optional(),
  badgeNumber: z.string().trim().regex(/^\d{0,12}$/, 'badgeNumber must be at most 12 digits').optional(),
  /** `true`: only the retired members; otherwise only the others. */
  archived: archivedFilter,
});
export type StaffListQuery = z.infer<typeof staffListQuery>;

export const staffListResponse = z.object({
  staffMembers: z.array(staffMember),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalStaff: z.number().int(),
});
export type StaffListResponse = z.infer<typeof staffListResponse>;
