// "Log entries" folded on a card of a list (an alert card): the entries linked to the record are asked for only when
// opened, so a page of fifty cards sends no fifty requests.
import { useId, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { MessageLinkKind } from '@prison/shared/message';
import { LinkedLogEntries } from './linked-log-entries';

export function LogEntriesDisclosure({ kind, id }: { kind: MessageLinkKind; id: number }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="mt-2 text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((was) => !was)}
        className="inline-flex min-h-11 items-center gap-1 rounded-md px-1 font-medium underline-offset-2 hover:underline sm:min-h-0"
      >
        {open ? <ChevronDown aria-hidden className="h-4 w-4" /> : <ChevronRight aria-hidden className="h-4 w-4" />}
        Log entries
      </button>
      <div id={panel} hidden={!open} className="mt-2">
        {open && <LinkedLogEntries kind={kind} id={id} headingLevel={3} />}
      </div>
    </div>
  );
}
