// /readers (decision 067): the indoor readers with their state, last seen and refusals; administrators and
// supervisors register them (placed by clicking on the plan, the secret shown once), give one a new secret (a leaked or
// replaced reader; shown once, the old one refused at once) and remove them, each after confirming.
import { useState } from 'react';
import { clsx } from 'clsx';
import type { Reader, ReaderCreated } from '@prison/shared/reader';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { stickyEndCell, stickyEndHeadCell } from '../../components/ui/table-classes';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { useReaders, useRemoveReader, useRotateReaderSecret } from './api';
import { RegisterReaderForm } from './register-reader-form';
import { WaysIn } from './ways-in';

export function ReadersPage() {
  const readers = useReaders();
  const mayWrite = useMay('readers.write');
  const remove = useRemoveReader();
  const [removing, setRemoving] = useState<Reader | null>(null);
  const rotate = useRotateReaderSecret();
  const [rotating, setRotating] = useState<Reader | null>(null);
  const [rotated, setRotated] = useState<ReaderCreated | null>(null);

  return (
    <Page title="Indoor readers">
      {mayWrite && <RegisterReaderForm readers={readers.data ?? []} />}
      {rotated && (
        <div role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900" data-testid="reader-new-secret">
          <p>
            Reader <strong>{rotated.name}</strong> has a new secret, shown this once; its old secret is refused from now on. Enter
            it in the reader&apos;s configuration now:
          </p>
          <code className="mt-2 block break-all rounded bg-white p-2 font-mono">{rotated.secret}</code>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => setRotated(null)}>
            Done
          </Button>
        </div>
      )}
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
                      <div className="flex gap-2">
                        <Button variant="secondary" size="sm" onClick={() => setRotating(reader)} aria-label={`New secret for reader ${reader.name}`}>
                          New secret
                        </Button>
                        <Button variant="danger" size="sm" onClick={() => setRemoving(reader)} aria-label={`Remove reader ${reader.name}`}>
                          Remove
                        </Button>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={`New secret for reader ${rotating?.name ?? ''}`}
        message={`Give reader ${rotating?.name ?? ''} a new secret? Its current secret is refused at once, so the reader's sightings are refused until its configuration holds the new one.`}
        confirmLabel="New secret"
        busy={rotate.isPending}
        error={rotate.isError ? errorMessage(rotate.error, 'Failed to give the reader a new secret.') : null}
        onConfirm={() => {
          if (!rotating) return;
          rotate.mutate(rotating.id, {
            onSuccess: (created) => {
              setRotated(created);
              setRotating(null);
            },
          });
        }}
        onCancel={() => {
          rotate.reset();
          setRotating(null);
        }}
      />
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
      <WaysIn />
    </Page>
  );
}
