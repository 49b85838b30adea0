// "Responding" on an alert (decision 100): who said they are on their way and when, shown to everyone who sees the
// alert, and the button that adds oneself. The person who raised a duress does not respond to himself.
import type { AlertRecord } from '@prison/shared/alert';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { formatClock } from '../../lib/feed-health';
import { useMay } from '../../lib/use-may';
import { useRespond } from './duress-api';

/** "Responding: Olive Operator (22:41), Sam Supervisor (22:42)", or that nobody has yet. */
export function RespondingList({ alert, className }: { alert: Pick<AlertRecord, 'responding'>; className?: string }) {
  const list = alert.responding ?? [];
  return (
    <p className={className} data-testid="responding-list">
      {list.length === 0 ? (
        'Nobody has said they are responding yet.'
      ) : (
        <>
          <span className="font-semibold">Responding:</span>{' '}
          {list.map((entry, index) => (
            <span key={entry.admin_id}>
              {index > 0 && ', '}
              {entry.name} (<time dateTime={entry.at}>{formatClock(Date.parse(entry.at))}</time>)
            </span>
          ))}
        </>
      )}
    </p>
  );
}

/** The "Responding" button of an open alert about staff; gone once this account responds. */
export function RespondButton({ alert }: { alert: AlertRecord }) {
  const { adminId } = useAuth();
  const mayWork = useMay('alerts.work');
  const respond = useRespond();
  if (!mayWork || alert.status === 'Resolved' || alert.raised_by_id === adminId) return null;
  if (alert.responding?.some((entry) => entry.admin_id === adminId)) return null;
  return (
    <div className="flex flex-col gap-1">
      <Button size="sm" variant="danger" className="min-h-11 sm:min-h-0" busy={respond.isPending} onClick={() => respond.mutate(alert.id)}>
        Responding
      </Button>
      {respond.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(respond.error, 'Could not record that you are responding.')}
        </p>
      )}
    </div>
  );
}
