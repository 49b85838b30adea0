// /readers (issue 25, decision 067): the indoor readers with their state, last seen and refusals; administrators and
// supervisors register them (placed by clicking on the plan, the secret shown once) and remove them after confirming.
import { useState } from 'react';
import { clsx } from 'clsx';
import type { Reader } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { stickyEndCell, stickyEndHeadCell } from '../../components/ui/table-classes';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { useReaders, useRemoveReader } from './api';
import { RegisterReaderForm } from './register-reader-form';

export function ReadersPage() {
  const readers = useReaders();
  const mayWrite = useMay('readers.write');
  const remove = useRemoveReader();
  const [removing, setRemoving] = useState<Reader | null>(null);

  return (
    <Page title="Indoor readers">
      {mayWrite && <RegisterReaderForm readers={readers.data ?? []} />}
      {readers.isPending ? (
        <Loading text="Loading readers..." />
      ) : readers.isError ? (
        <ErrorText>{errorMessage(readers.error, 'Failed to load the readers.')}</ErrorText>
      ) : readers.data.length === 0 ? (
        <EmptyState>No readers registered yet.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-left text-sm" data-testid="readers-table">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">Name</th>
                <th scope="col" className="px-3 py-2">Id</th>
                <th scope="col" className="px-3 py-2">State</th>
                <th scope="col" className="px-3 py-2">Last seen</th>
                <th scope="col" className="px-3 py-2">Refused</th>
                <th scope="col" className="px-3 py-2">Place</th>
                {mayWrite && <th scope="col" className={clsx('px-3 py-2', stickyEndHeadCell)}><span className="sr-only">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {readers.data.map((reader) => (
                <tr key={reader.id} className="border-t border-slate-100" data-testid={`reader-row-${reader.id}`}>
                  <td className="px-3 py-2 font-medium text-slate-900">{reader.name}</td>
                  <td className="px-3 py-2 font-mono text-slate-700">{reader.id}</td>
                  <td className="px-3 py-2">
                    <span
                      className={clsx(
                        'rounded px-2 py-0.5 text-xs font-medium',
                        reader.state === 'silent' ? 'bg-slate-200 text-slate-800' : 'bg-teal-100 text-teal-900',
                      )}
                    >
                      {reader.state === 'silent' ? 'Silent' : 'Reporting'}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-slate-700">{reader.last_seen_at ? formatAlertDateTime(reader.last_seen_at) : 'Never'}</td>
                  <td className="px-3 py-2 text-slate-700">{reader.refused_count}</td>
                  <td className="px-3 py-2 text-slate-700">
                    {[reader.block_id && `Block ${reader.block_id}`, reader.cell_id && `Cell ${reader.cell_id}`].filter(Boolean).join(', ') ||
                      `${reader.lat.toFixed(5)}, ${reader.lng.toFixed(5)}`}{' '}
                    ({reader.radius_m} m)
                  </td>
                  {mayWrite && (
                    <td className={clsx('px-3 py-2', stickyEndCell)}>
                      <Button variant="danger" size="sm" onClick={() => setRemoving(reader)} aria-label={`Remove reader ${reader.name}`}>
                        Remove
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove reader ${removing?.name ?? ''}`}
        message={`Remove reader ${removing?.name ?? ''}? Its sightings stop being taken; the fixes it made stay in the history.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Failed to remove the reader.') : null}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, { onSuccess: () => setRemoving(null) });
        }}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
      />
    </Page>
  );
}
