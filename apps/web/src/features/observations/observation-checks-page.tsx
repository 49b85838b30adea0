// "Observation checks" (/observations?block=NAME): who in a block is due and overdue, live (the socket's
// dataChanged('observations'), a 15 s poll with the time of the last update shown, and the due times counted against
// a ticking clock, so a prisoner turns overdue on screen at his due time), and recording a check. Cards, not a table:
// officers use it on a phone (390 px).
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import { OBSERVATION_LEVEL_LABELS, type ObservationDueItem } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useBlockNames } from '../../lib/block-names';
import { useMay } from '../../lib/use-may';
import { useNow } from '../../lib/use-now';
import { useDueList } from './api';
import { byUrgency, checkState, STATE_CLASS, STATE_TEXT } from './check-state';
import { RecordCheckDialog } from './record-check-dialog';

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function DueCard({ item, now, mayRecord, onRecord }: { item: ObservationDueItem; now: number; mayRecord: boolean; onRecord(): void }) {
  const state = checkState(item, now);
  const name = `${item.first_name} ${item.last_name}`.trim();
  return (
    <li data-testid="due-row" data-state={state} className={clsx('rounded-lg border bg-white p-4 shadow-sm', state === 'overdue' ? 'border-red-700' : 'border-slate-200')}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold break-words text-slate-900">{name}</p>
          <p className="text-sm text-slate-700">
            Cell {item.cell_id ?? 'none'} · {OBSERVATION_LEVEL_LABELS[item.level]}, every {item.interval_minutes} min
          </p>
        </div>
        <span className={clsx('rounded px-2 py-0.5 text-sm font-semibold', STATE_CLASS[state])}>{STATE_TEXT[state]}</span>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
        <dt>Last check</dt>
        <dd>
          {item.last_check_at ? (
            <>
              {time(item.last_check_at)} by {item.last_check_by}
              {item.last_verified_by_position === true ? ' (verified by position)' : ' (not verified by position)'}
            </>
          ) : (
            'None yet'
          )}
        </dd>
        <dt>Due</dt>
        <dd>{item.due_at ? <time dateTime={item.due_at}>{time(item.due_at)}</time> : 'Not scheduled'}</dd>
        {item.watcher && (
          <>
            <dt>Watched by</dt>
            <dd>
              {item.watcher.name} since {time(item.watcher.since)}
            </dd>
          </>
        )}
      </dl>
      {mayRecord && (
        <div className="mt-3">
          <Button size="sm" onClick={onRecord} aria-label={`Record check for ${name}`}>
            Record check
          </Button>
        </div>
      )}
    </li>
  );
}

export function ObservationChecksPage() {
  const [params, setParams] = useSearchParams();
  const blocks = useBlockNames();
  const block = params.get('block') ?? blocks.data?.[0] ?? null;
  const due = useDueList(block);
  const now = useNow(1_000);
  const mayRecord = useMay('observations.record');
  const [recording, setRecording] = useState<{ id: number; label: string } | null>(null);
  const items = byUrgency(due.data?.data ?? []);
  const overdue = items.filter((item) => checkState(item, now) === 'overdue').length;

  return (
    <Page title="Observation checks">
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div className="w-full max-w-xs">
          <SelectField label="Block" value={block ?? ''} options={blocks.data ?? []} onChange={(event) => setParams({ block: event.target.value })} disabled={!blocks.data?.length} />
        </div>
        {due.data && (
          <p className="text-sm text-slate-700" aria-live="polite">
            <strong data-testid="overdue-count">{overdue}</strong> overdue of {items.length} · updated at {time(new Date(due.dataUpdatedAt).toISOString())}
          </p>
        )}
      </div>
      {blocks.isPending ? (
        <Loading text="Loading blocks..." />
      ) : blocks.isError ? (
        <ErrorText>{errorMessage(blocks.error, 'Failed to fetch the blocks.')}</ErrorText>
      ) : block === null ? (
        <EmptyState>No blocks yet: add cells first.</EmptyState>
      ) : due.isPending ? (
        <Loading text="Loading checks..." />
      ) : due.isError ? (
        <ErrorText>{errorMessage(due.error, 'Failed to fetch the checks due.')}</ErrorText>
      ) : items.length === 0 ? (
        <EmptyState>No prisoners in this block.</EmptyState>
      ) : (
        <ul aria-label={`Checks due in ${block}`} className="flex flex-col gap-3">
          {items.map((item) => (
            <DueCard
              key={item.prisoner_id}
              item={item}
              now={now}
              mayRecord={mayRecord}
              onRecord={() => setRecording({ id: item.prisoner_id, label: `${item.first_name} ${item.last_name}, cell ${item.cell_id ?? 'none'}` })}
            />
          ))}
        </ul>
      )}
      <RecordCheckDialog prisoner={recording} onClose={() => setRecording(null)} />
    </Page>
  );
}
