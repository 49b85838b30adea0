// My active sessions: where and when, which one is this browser, and a confirmed revoke for any of them.
import { useState } from 'react';
import type { SessionInfo } from '@prison/shared/profile';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { stickyEndCell } from '../../components/ui/table-classes';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useRevokeSession, useSessions } from './api';

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const { notify } = useToast();
  const [target, setTarget] = useState<SessionInfo | null>(null);

  if (sessions.isPending) return <Loading text="Loading sessions..." />;
  if (sessions.isError) return <ErrorText>{errorMessage(sessions.error, 'Failed to fetch sessions.')}</ErrorText>;
  if (sessions.data.length === 0) return <EmptyState>No active sessions.</EmptyState>;

  const confirm = () => {
    if (!target) return;
    revoke.mutate(target.id, {
      onSuccess: () => {
        setTarget(null);
        // Revoking this browser's own session logs it out (the socket's sessionEnded does the same).
        if (target.current) window.location.assign('/login');
        else notify('Session revoked.');
      },
    });
  };

  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-600">
            <tr>
              <th className="py-2 pr-4 font-medium">Signed in</th>
              <th className="py-2 pr-4 font-medium">Last seen</th>
              <th className="py-2 pr-4 font-medium">Address</th>
              <th className="py-2 pr-4 font-medium">Browser</th>
              <th className={`py-2 pl-2 font-medium ${stickyEndCell}`}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((session) => (
              <tr
                key={session.id}
                data-testid="session-row"
                data-current={session.current || undefined}
                className="border-b border-slate-100"
              >
                <td className="py-2 pr-4 whitespace-nowrap">
                  {when(session.created_at)}
                  {/* Beside the date, not in the pinned actions column, which stays narrow on a phone. */}
                  {session.current && (
                    <span className="ml-2 rounded bg-green-100 px-2 py-0.5 text-xs text-green-800">This browser</span>
                  )}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap">{when(session.last_seen_at)}</td>
                <td className="py-2 pr-4">{session.ip ?? '—'}</td>
                <td className="max-w-xs truncate py-2 pr-4" title={session.user_agent ?? undefined}>
                  {session.user_agent ?? '—'}
                </td>
                <td className={`py-2 pl-2 text-right whitespace-nowrap ${stickyEndCell}`}>
                  <Button variant="secondary" size="sm" onClick={() => setTarget(session)}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={target !== null}
        title="Revoke session"
        message={
          target?.current
            ? 'This is the session of this browser: you will be logged out. Revoke it?'
            : 'The browser using this session will be logged out at once. Revoke it?'
        }
        confirmLabel="Revoke"
        busy={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error, 'The session could not be revoked.') : null}
        onConfirm={confirm}
        onCancel={() => {
          revoke.reset();
          setTarget(null);
        }}
      />
    </>
  );
}
