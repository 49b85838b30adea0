// Which step on an alert needs a note in words, without a schema: the alert bar on every page
// reads it without loading the validation library.
import type { AlertType } from './constants';

export const ALERT_WORKFLOW_ACTIONS = ['acknowledge', 'resolve'] as const;
export type AlertWorkflowAction = (typeof ALERT_WORKFLOW_ACTIONS)[number];

/** Levels whose resolution is deliberate: acknowledged first, then resolved with a note that says something. */
export const DELIBERATE_LEVELS: readonly AlertType[] = ['Critical', 'Warning'];
export const resolveIsDeliberate = (level: AlertType | string) => (DELIBERATE_LEVELS as readonly string[]).includes(level);

/** A note "says something" when it holds a letter or a digit: blank, dots or dashes alone do not. */
export const noteHasWords = (text: string | null | undefined) => !!text && /[\p{L}\p{N}]/u.test(text);

/** A Critical alert is acknowledged with a note in words: whoever takes it says what is being done (decision 095). */
export const acknowledgeNeedsNote = (level: AlertType | string) => level === 'Critical';

/** Whether this step on an alert of this level needs a note in words (the server refuses it without one: 400). */
export const stepNeedsNote = (action: AlertWorkflowAction, level: AlertType | string) =>
  action === 'resolve' ? resolveIsDeliberate(level) : acknowledgeNeedsNote(level);
