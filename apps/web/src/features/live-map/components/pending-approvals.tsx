// "Pending approvals" on the live map: every change that weakens an alarm and waits for a second administrator
// (geofences and keep-apart pairs; decision 041). Hidden while there is none.
import { usePendingChanges } from '../api/pending-changes';
import { PendingChangeNotice } from './pending-change-notice';

export function PendingApprovals() {
  const pending = usePendingChanges();
  const changes = pending.data ?? [];
  if (changes.length === 0) return null;
  return (
    <section aria-labelledby="pending-approvals-title" className="border-b border-slate-200 p-4" data-testid="pending-approvals">
      <h2 id="pending-approvals-title" className="mb-2 font-semibold">
        Pending approvals ({changes.length})
      </h2>
      <div className="flex max-h-72 flex-col gap-2 overflow-y-auto">
        {changes.map((change) => (
          <PendingChangeNotice key={change.id} change={change} showTarget />
        ))}
      </div>
    </section>
  );
}
