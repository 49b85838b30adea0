// Duress in one tap (decision 100): what a member of staff sends with "Need assistance", the alarm's words, and the
// stand-down with a note.
import { z } from 'zod';
import { alertRecord } from './alert';
import { noteHasWords } from './alert-workflow';
import { boundedText } from './text';

export * from './duress-wording';

/** POST /duress/stand-down: the person who raised it says in words that he is safe. */
export const duressStandDownRequest = z.object({
  note: boundedText(2000, { multiline: true }).refine(noteHasWords, 'is required: say in words that help is no longer needed'),
});
export type DuressStandDownRequest = z.infer<typeof duressStandDownRequest>;

/** GET /duress/current: the account's own open duress alarm, or null. */
export const currentDuress = z.object({ data: alertRecord.nullable() });
export type CurrentDuress = z.infer<typeof currentDuress>;
