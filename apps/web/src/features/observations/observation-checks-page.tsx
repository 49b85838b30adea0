// "Observation checks" (/observations?block=NAME): the round of a block (decision 099), grouped by landing and cell,
// overdue first then by due time, live (the socket's dataChanged('observations'), a 15 s poll with the time of the last
// update shown, and the due times counted against a ticking clock, so a prisoner turns overdue on screen at his due
// time). Standard observation is one tap ("Seen, well", "Asleep, breathing seen", "Not in cell" asks where); enhanced,
// high and constant keep the written check. Each row names him with his photo, prison number and flag badges. Compact rows with 44 px targets: officers use it on a phone (390 px).
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import {
  OBSERVATION_LEVEL_LABELS,
  QUICK_OBSERVATION_LEVELS,
  type ObservationDueItem,
} from '@prison/shared/observation';
import { PrisonerIdentity } from '../../components/prisoner-identity';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useBlockNames } from '../../lib/block-names';
import { useMay } from '../../lib/use-may';
import { useNow } from '../../lib/use-now';
import { useDueList } from './api';
import { checkState, STATE_CLASS, STATE_TEXT } from './check-state';
import { QuickCheckButtons } from './quick-check';
import { RecordCheckDialog } from './record-check-dialog';
import { roundGroups } from './round-groups';

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const shortTime = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

function DueRow({ item, now, mayRecord, onRecord }: { item: ObservationDueItem; now: number; mayRecord: boolean; onRecord(): void }) {
  const state = checkState(item, now);
  const name = `${item.first_name} ${item.last_name}`.trim();
  const quick = QUICK_OBSERVATION_LEVELS.includes(item.level);
  return (
    <li data-testid="due-row" data-state={state} className={clsx('border-l-4 bg-white px-3 py-2', state === 'overdue' ? 'border-red-700' : 'border-transparent')}>
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <PrisonerIdentity prisoner={item} />
        </div>
        <span className={clsx('shrink-0 rounded px-2 py-0.5 text-sm font-semibold', STATE_CLASS[state])}>{STATE_TEXT[state]}</span>
      </div>
      <p className="text-sm text-slate-700">
        {item.due_at ? (
          <>
            Due <time dateTime={item.due_at}>{shortTime(item.due_at)}</time>
          </>
        ) : (
          'Not scheduled'
        )}
        {' · '}
        {OBSERVATION_LEVEL_LABELS[item.level]}, every {item.interval_minutes} min
        {' · '}
        {item.last_check_at ? (
          <>
            last {time(item.last_check_at)} by {item.last_check_by}
            {item.last_verified_by_position === true ? ' (verified by position)' : ' (not verified by position)'}
          </>
        ) : (
          'never checked'
        )}
        {item.watcher && ` · watched by ${item.watcher.name} since ${shortTime(item.watcher.since)}`}
      </p>
      {mayRecord &&
        (quick ? (
          <QuickCheckButtons prisonerId={item.prisoner_id} name={name} />
        ) : (
          <div className="mt-2">
            <Button className="min-h-11" onClick={onRecord} aria-label={`Record check for ${name}`}>
              Record check
            </Button>
          </div>
        ))}
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
  const items = due.data?.data ?? [];
  const landings = roundGroups(items);
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
        <div aria-label={`Checks due in ${block}`} role="region" className="flex flex-col gap-4">
          {landings.map((landing) => (
            <section key={landing.landing ?? ''} data-testid="due-landing" aria-labelledby={`landing-${landing.landing ?? 'all'}`}>
              <h2 id={`landing-${landing.landing ?? 'all'}`} className="mb-1 text-base font-semibold text-slate-900">
                {landing.landing !== null ? `Landing ${landing.landing}` : 'Cells'}
              </h2>
              <ul className="flex flex-col gap-2">
                {landing.cells.map((cell) => (
                  <li key={cell.cellId ?? ''} data-testid="due-cell" className="overflow-hidden rounded-lg border border-slate-200 shadow-sm">
                    <h3 className="bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">Cell {cell.cellId ?? 'none'}</h3>
                    <ul className="divide-y divide-slate-200">
                      {cell.items.map((item) => (
                        <DueRow
                          key={item.prisoner_id}
                          item={item}
                          now={now}
                          mayRecord={mayRecord}
                          onRecord={() => setRecording({ id: item.prisoner_id, label: `${item.first_name} ${item.last_name} (${item.prison_number}), cell ${item.cell_id ?? 'none'}` })}
                        />
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <RecordCheckDialog prisoner={recording} onClose={() => setRecording(null)} />
    </Page>
  );
}
