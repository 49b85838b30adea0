// "Need assistance" on every staff screen (decision 100): one button in the top bar, reachable in one tap on a phone,
// guarded against a pocket press without slowing a real one: a second tap within a few seconds, or a 1 s hold, sends
// it. Keyboard: Enter twice. While the account's alarm is open, a panel under the bars says who is responding and lets
// the person stand it down with a note.
import { useEffect, useRef, useState } from 'react';
import { Siren } from 'lucide-react';
import { clsx } from 'clsx';
import { noteHasWords } from '@prison/shared/alert-workflow-rules';
import { DURESS_CONFIRM_WINDOW_MS, DURESS_HOLD_MS } from '@prison/shared/duress-wording';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { formatClock } from '../../lib/feed-health';
import { useMay } from '../../lib/use-may';
import { useCurrentDuress, useRaiseDuress, useStandDown } from './duress-api';
import { RespondingList } from './responding';

export function NeedAssistanceButton() {
  const may = useMay('duress.raise');
  const raise = useRaiseDuress();
  const [armed, setArmed] = useState(false);
  const holdTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const disarmTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The click that ends a hold which already sent the alarm must not arm it again.
  const sentByHold = useRef(false);
  useEffect(() => () => [holdTimer, disarmTimer].forEach((t) => clearTimeout(t.current)), []);
  if (!may) return null;

  const send = () => {
    clearTimeout(disarmTimer.current);
    setArmed(false);
    raise.mutate();
  };
  const stopHold = () => clearTimeout(holdTimer.current);

  return (
    <>
      <button
        type="button"
        aria-label={armed ? 'Need assistance: tap again to send' : 'Need assistance'}
        title="Need assistance: tap twice, or hold for a second"
        data-testid="need-assistance"
        data-armed={armed || undefined}
        className={clsx(
          // 44 px on a touch screen; on a desktop (xl), where the whole menu shares one line, an icon of 36 px.
          'inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-md px-2 text-sm font-semibold text-white select-none xl:min-h-9 xl:min-w-9 xl:px-1.5',
          'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white',
          armed ? 'animate-pulse bg-red-700 ring-2 ring-white' : 'bg-red-700 hover:bg-red-800',
        )}
        onPointerDown={() => {
          sentByHold.current = false;
          stopHold();
          holdTimer.current = setTimeout(() => {
            sentByHold.current = true;
            send();
          }, DURESS_HOLD_MS);
        }}
        onPointerUp={stopHold}
        onPointerLeave={stopHold}
        onPointerCancel={stopHold}
        onContextMenu={(event) => event.preventDefault()}
        onClick={() => {
          if (sentByHold.current) {
            sentByHold.current = false;
            return;
          }
          if (armed) return send();
          setArmed(true);
          clearTimeout(disarmTimer.current);
          disarmTimer.current = setTimeout(() => setArmed(false), DURESS_CONFIRM_WINDOW_MS);
        }}
      >
        <Siren aria-hidden className="h-5 w-5" />
        <span className={armed ? 'inline' : 'hidden sm:inline xl:hidden 2xl:inline'}>{armed ? 'Tap again to send' : 'Need assistance'}</span>
      </button>
      <span role="status" className="sr-only">
        {armed ? 'Tap Need assistance again to call for help.' : raise.isPending ? 'Calling for help...' : ''}
      </span>
      {raise.isError && (
        <span role="alert" className="rounded bg-white px-2 py-1 text-sm text-red-800">
          {errorMessage(raise.error, 'The alarm was not sent: call on the radio.')}
        </span>
      )}
    </>
  );
}

/** The account's own open alarm: when it went, who is responding, and Stand down (with a note). */
export function DuressPanel() {
  const may = useMay('duress.raise');
  const current = useCurrentDuress(may);
  const [standing, setStanding] = useState(false);
  const alarm = current.data;
  if (!may || !alarm) return null;
  return (
    <section aria-labelledby="duress-panel-title" className="border-b-2 border-red-800 bg-red-700 text-white" data-testid="duress-panel">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
        <div className="min-w-0 flex-1">
          <h2 id="duress-panel-title" className="text-sm font-bold">
            Help requested at <time dateTime={alarm.timestamp}>{formatClock(Date.parse(alarm.timestamp))}</time>
          </h2>
          <p className="text-sm">{alarm.details}</p>
          <RespondingList alert={alarm} className="text-sm" />
        </div>
        <Button variant="secondary" className="min-h-11" onClick={() => setStanding(true)}>
          Stand down
        </Button>
      </div>
      <StandDownDialog open={standing} onClose={() => setStanding(false)} />
    </section>
  );
}

function StandDownDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [note, setNote] = useState('');
  const standDown = useStandDown();
  const close = () => {
    setNote('');
    standDown.reset();
    onClose();
  };
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Stand down your alarm"
      description="Say in words that help is no longer needed. Everyone sees the alarm resolved with your note."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            busy={standDown.isPending}
            disabled={!noteHasWords(note)}
            onClick={() => standDown.mutate(note.trim(), { onSuccess: close })}
          >
            Stand down
          </Button>
        </>
      }
    >
      <TextAreaField label="Note (required)" rows={3} maxLength={2000} required value={note} onChange={(event) => setNote(event.target.value)} />
      {standDown.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {errorMessage(standDown.error, 'The alarm could not be stood down.')}
        </p>
      )}
    </Modal>
  );
}
