// Under the top bar of every staff screen: the handovers written before this login that the account has still to
// confirm reading, one at a time, oldest first, until it confirms each. It asks nothing of the shift that wrote them.
import { useEffect, useRef } from 'react';
import { ClipboardCheck } from 'lucide-react';
import { errorMessage } from '../../lib/api-client';
import { useConfirmHandover, usePendingHandovers } from '../../lib/log-entries';
import { useMay } from '../../lib/use-may';
import { Button } from '../ui/button';
import { LogEntry } from './log-entry';

export function HandoverPanel() {
  const mayConfirm = useMay('handovers.confirm');
  const pending = usePendingHandovers(mayConfirm);
  const confirm = useConfirmHandover();
  const [first] = pending.data?.messages ?? [];
  const total = pending.data?.total ?? 0;
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmedOne = useRef(false);

  // After a confirmation the next handover takes its place: the keyboard stays on the panel, not lost on the page.
  useEffect(() => {
    if (confirmedOne.current && first) heading.current?.focus();
    confirmedOne.current = false;
  }, [first?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!first) return null;
  return (
    <section
      aria-labelledby="handover-panel-heading"
      data-testid="handover-panel"
      className="border-b-2 border-indigo-300 bg-indigo-50 print:hidden"
    >
      <div className="mx-auto flex max-w-screen-2xl flex-col gap-2 px-4 py-3">
        <h2
          id="handover-panel-heading"
          ref={heading}
          tabIndex={-1}
          className="flex items-center gap-2 text-sm font-semibold text-indigo-950"
        >
          <ClipboardCheck aria-hidden className="h-4 w-4 shrink-0" />
          {total === 1 ? 'A handover to read before you start' : `Handover 1 of ${total} to read before you start`}
        </h2>
        <div className="max-h-[40vh] overflow-y-auto">
          <LogEntry
            message={first}
            compact
            actions={
              <Button
                busy={confirm.isPending && confirm.variables === first.id}
                onClick={() => {
                  confirmedOne.current = true;
                  confirm.mutate(first.id);
                }}
              >
                I have read this handover
              </Button>
            }
          />
        </div>
        {confirm.isError && (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(confirm.error, 'The confirmation could not be saved. Try again.')}
          </p>
        )}
      </div>
    </section>
  );
}
