// /counts: start a roll count of a block (or of the whole prison), work it on the count sheet, and
// read the history. Built for a phone: lists, not wide tables.
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { useCount, useCountHistory, useLatestCounts, useStartCount } from './api';
import { CountStateBadge } from './count-badges';
import { CountSheet, countTitle } from './count-sheet';

const WHOLE_PRISON = 'Whole prison';

function StartCount({ onStarted }: { onStarted: (id: number) => void }) {
  const latest = useLatestCounts();
  const { blocks: caseload } = useAuth();
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const start = useStartCount();
  if (latest.isPending) return <Loading text="Loading blocks..." />;
  if (latest.isError) return <ErrorText>{errorMessage(latest.error, 'Failed to fetch blocks.')}</ErrorText>;
  const blocks = latest.data.map((row) => row.block);
  if (blocks.length === 0) return <EmptyState>No blocks available</EmptyState>;
  const options = [...blocks.map((block) => `Block ${block}`), ...(caseload.length === 0 ? [WHOLE_PRISON] : [])];
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return setError('block_id: choose a block to count');
    setError(null);
    const block = choice === WHOLE_PRISON ? null : choice.slice('Block '.length);
    start.mutate(block, {
      onSuccess: (count) => onStarted(count.id),
      onError: (failure) => setError(errorMessage(failure, 'The count could not be started.')),
    });
  };
  return (
    <form onSubmit={send} aria-label="Start a count" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-end">
      <div className="flex-1">
        <SelectField
          label="Count"
          placeholder="Choose a block"
          options={options}
          value={choice}
          error={error ?? undefined}
          onChange={(event) => setChoice(event.target.value)}
        />
      </div>
      <Button type="submit" busy={start.isPending}>
        Start count
      </Button>
    </form>
  );
}

function CountHistory({ onOpen }: { onOpen: (id: number) => void }) {
  const history = useCountHistory();
  if (history.isPending) return <Loading text="Loading counts..." />;
  if (history.isError) return <ErrorText>{errorMessage(history.error, 'Failed to fetch counts.')}</ErrorText>;
  if (history.data.length === 0) return <EmptyState>No counts yet.</EmptyState>;
  return (
    <ul aria-label="Count history" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {history.data.map((count) => (
        <li key={count.id} data-testid="count-history-row" className="flex flex-wrap items-center justify-between gap-2 p-3">
          <div className="min-w-0">
            <p className="font-medium">{countTitle(count)}</p>
            <p className="text-xs text-slate-600">
              {formatAlertDateTime(count.started_at)} · {count.started_by} · expected {count.expected}
              {count.counted !== null ? ` · counted ${count.counted}` : ''}
            </p>
          </div>
          <div className="flex items-center gap-2">
            <CountStateBadge state={count.state} />
            <Button variant="secondary" size="sm" onClick={() => onOpen(count.id)} aria-label={`Open count ${count.id}`}>
              Open
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function CountsPage() {
  const mayWork = useMay('counts.work');
  const [openId, setOpenId] = useState<number | null>(null);
  const open = useCount(openId);
  const show = (id: number) => {
    setOpenId(id);
    window.scrollTo({ top: 0 });
  };
  return (
    <Page title="Roll counts">
      <div className="flex flex-col gap-6">
        {mayWork && <StartCount onStarted={show} />}
        {openId !== null &&
          (open.isPending ? (
            <Loading text="Loading the count..." />
          ) : open.isError ? (
            <ErrorText>{errorMessage(open.error, 'Failed to fetch the count.')}</ErrorText>
          ) : (
            <CountSheet count={open.data} />
          ))}
        <section aria-labelledby="count-history-title">
          <h2 id="count-history-title" className="mb-3 text-lg font-semibold">
            History
          </h2>
          <CountHistory onOpen={show} />
        </section>
      </div>
    </Page>
  );
}
