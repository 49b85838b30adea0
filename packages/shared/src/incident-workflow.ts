// Incidents with a workflow: reported -> investigating -> closed with who and when, linked alerts,
// people and a time window. The spec's incident shape (incident.ts) is unchanged; this adds to it.
import { z } from 'zod';
import { incident } from './incident';
import { boundedText, int32, intText, isoInstant } from './text';

export const INCIDENT_STATUSES = ['reported', 'investigating', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The steps an incident may take: forward, and a closed one reopened for more investigation. */
export const INCIDENT_TRANSITIONS: Record<IncidentStatus, readonly IncidentStatus[]> = {
  reported: ['investigating'],
  investigating: ['closed'],
  closed: ['investigating'],
};

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  reported: 'Reported',
  investigating: 'Investigating',
  closed: 'Closed',
};

/** The most alerts or people one incident links, and one request adds. */
export const INCIDENT_MAX_LINKS = 200;
/** The longest window an incident replays (as the replay itself). */
export const INCIDENT_MAX_WINDOW_HOURS = 24;

const ids = (field: string) =>
  z.array(int32(), { message: `${field} must be a list of ids` }).max(INCIDENT_MAX_LINKS, `${field}: at most ${INCIDENT_MAX_LINKS} ids`);

const window = z.object({ from: isoInstant(), to: isoInstant() }).superRefine((value, ctx) => {
  const from = Date.parse(value.from);
  const to = Date.parse(value.to);
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
  else if (to - from > INCIDENT_MAX_WINDOW_HOURS * 3_600_000) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the window may span at most ${INCIDENT_MAX_WINDOW_HOURS} hours` });
  }
});

export const incidentLinksInput = z.object({
  alert_ids: ids('alert_ids').optional(),
  prisoner_ids: ids('prisoner_ids').optional(),
  staff_ids: ids('staff_ids').optional(),
});
export type IncidentLinksInput = z.infer<typeof incidentLinksInput>;

/** POST /incidents: an incident opened from the replay or the alerts screen, with its window and links. */
export const incidentOpenInput = incidentLinksInput.extend({
  description: boundedText(5000, { multiline: true }).min(1, 'description is required'),
  window,
});
export type IncidentOpenInput = z.infer<typeof incidentOpenInput>;

export const incidentStatusInput = z.object({
  status: z.enum(INCIDENT_STATUSES, { message: `status must be one of ${INCIDENT_STATUSES.join(', ')}` }),
  note: boundedText(1000, { multiline: true }).optional(),
});
export type IncidentStatusInput = z.infer<typeof incidentStatusInput>;

export const incidentIdParams = z.object({ id: intText() });

/** What an incident links: an alert, a prisoner or a staff member (the kinds of incidentLinksInput's lists). */
export const INCIDENT_LINK_KINDS = ['alert', 'prisoner', 'staff'] as const;
export type IncidentLinkKind = (typeof INCIDENT_LINK_KINDS)[number];

/** DELETE /incidents/{id}/links/{kind}/{target_id}: one link taken back (linked by mistake). */
export const incidentLinkParams = z.object({
  id: intText(),
  kind: z.enum(INCIDENT_LINK_KINDS, { message: `kind must be one of ${INCIDENT_LINK_KINDS.join(', ')}` }),
  target_id: intText(),
});

export const incidentStep = z.object({
  status: z.enum(INCIDENT_STATUSES),
  at: z.string(),
  by: z.string(),
  note: z.string().nullable(),
});

export const incidentPersonLink = z.object({ id: z.number(), name: z.string() });
export const incidentAlertLink = z.object({
  id: z.number(),
  alert_type: z.string(),
  details: z.string(),
  timestamp: z.string(),
  prisoner_id: z.number().nullable(),
});

export const incidentDetail = incident.extend({
  status: z.enum(INCIDENT_STATUSES),
  window: z.object({ from: z.string(), to: z.string() }).nullable(),
  steps: z.array(incidentStep),
  alerts: z.array(incidentAlertLink),
  prisoners: z.array(incidentPersonLink),
  staff: z.array(incidentPersonLink),
});
export type IncidentDetail = z.infer<typeof incidentDetail>;

export const incidentSummary = incident.extend({ status: z.enum(INCIDENT_STATUSES), window: incidentDetail.shape.window });
export type IncidentSummary = z.infer<typeof incidentSummary>;

export const incidentListQuery = z.object({
  status: z.enum(INCIDENT_STATUSES, { message: `status must be one of ${INCIDENT_STATUSES.join(', ')}` }).optional(),
  limit: intText(1, 200).default(50),
});
export const incidentListResponse = z.object({ data: z.array(incidentSummary) });

