// The reason for a change that weakens an alarm, checked as the server checks it, for every dialog that asks one.
import { changeReason } from '@prison/shared/pending-change';

/** The sentence to show, or undefined when the reason will do. */
export function reasonProblem(reason: string): string | undefined {
  const checked = changeReason.safeParse(reason);
  return checked.success ? undefined : `Reason ${checked.error.issues[0]!.message}`;
}
