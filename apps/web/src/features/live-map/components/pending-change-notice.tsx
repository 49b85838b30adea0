// A change that weakens an alarm, waiting for a second administrator (decision 041): who asked, why and what changes;
// Approve and Refuse for anyone but the one who asked. Until approved the old rule keeps alerting.
import { useMay } from '../../../lib/use-may';
import type { PendingChange } from '@prison/shared/pending-change';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatAlertDateTime } from '../../../lib/format';
import { useToast } from '../../../lib/toast';
import { useDecideChange } from '../api/pending-changes';

export function PendingChangeNotice({ change, showTarget = false }: { change: PendingChange; showTarget?: boolean }) {
  const { adminId } = useAuth();
  const decide = useDecideChange();
  const { notify } = useToast();
  const own = adminId !== null && adminId === change.requested_by_admin_id;
  const mayDecide = useMay('changes.decide');
  const act = (decision: 'approve' | 'refuse') =>
    decide.mutate({ id: change.id, decision }, { onSuccess: (result) => notify(result.message) });
  return (
    <div
      className="flex flex-col gap-1 rounded border border-amber-300 bg-amber-50 p-2 text-sm"
      data-testid="pending-change"
      aria-label={`Change pending approval: ${change.target_name}`}
    >
      <p className="font-medium text-amber-900">
        Change pending approval{showTarget && <>: {change.target_name}</>}
      </p>
      <ul className="list-disc pl-5 text-slate-800">
        {change.changes.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      <p className="text-slate-700">
        Asked by <span className="font-medium">{change.requested_by}</span>, {formatAlertDateTime(change.requested_at)}
      </p>
      <p className="text-slate-700">
        Why: <span className="italic">{change.reason}</span>
      </p>
      {change.until && (
        <p className="text-slate-700">
          Ends by itself: <span className="font-medium">{formatAlertDateTime(change.until)}</span>
        </p>
      )}
      {own ? (
        <p className="text-xs text-slate-600">You asked for this change: another administrator must approve it.</p>
      ) : !mayDecide ? null : (
        <div className="flex gap-2">
          <Button size="sm" onClick={() => act('approve')} busy={decide.isPending && decide.variables?.decision === 'approve'}>
            Approve
          </Button>
          <Button size="sm" variant="secondary" onClick={() => act('refuse')} disabled={decide.isPending}>
            Refuse
          </Button>
        </div>
      )}
      {decide.error && (
        <p role="alert" className="text-xs text-red-700">
          {errorMessage(decide.error, 'The decision was not saved.')}
        </p>
      )}
    </div>
  );
}
