// Duress in one tap (decision 100): what a member of staff sends with "Need assistance", the alarm's words, and the
// stand-down with a note.
import { z } from 'zod';
import { alertRecord } from './alert';
import { noteHasWords } from './alert-workflow';
import { boundedText } from './text';

/** Where the alarm says he is when his tracker has no fresh fix inside a named block area or geofence. */
export const LOCATION_NOT_KNOWN = 'location not known';

/** "Officer NAME needs assistance at PLACE" (PLACE: a block area or a geofence's name, else "location not known"). */
export const duressText = (name: string, place: string | null) => `Officer ${name} needs assistance at ${place ?? LOCATION_NOT_KNOWN}`;

/** How long a second tap arms "Need assistance" for, and how long a hold sends it (a pocket press does neither). */
export const DURESS_CONFIRM_WINDOW_MS = 4_000;
export const DURESS_HOLD_MS = 1_000;

/** POST /duress/stand-down: the person who raised it says in words that he is safe. */
export const duressStandDownRequest = z.object({
  note: boundedText(2000, { multiline: true }).refine(noteHasWords, 'is required: say in words that help is no longer needed'),
});
export type DuressStandDownRequest = z.infer<typeof duressStandDownRequest>;

/** GET /duress/current: the account's own open duress alarm, or null. */
export const currentDuress = z.object({ data: alertRecord.nullable() });
export type CurrentDuress = z.infer<typeof currentDuress>;
