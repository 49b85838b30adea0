// The printable report for the case file: what was asked, by whom, when, and the answer. Shown only in print (the
// screen's controls are hidden there), so "Print report" prints exactly this.
import type { NearResponse } from '@prison/shared/investigations';
import { formatInstant } from './local-time';
import { subjectLabel, type NearQuestion } from './near-params';
import { NearTable } from './near-table';

export function NearReport({ question, answer, askedBy, askedAt }: { question: NearQuestion; answer: NearResponse; askedBy: string; askedAt: number }) {
  return (
    <section className="hidden text-black print:block" aria-label="Printable report" data-testid="near-report">
      <h2 className="mb-2 text-xl font-semibold">Who was near: investigation report</h2>
      <dl className="mb-4 grid grid-cols-[10rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">Subject</dt>
        <dd>{subjectLabel(question.subject)}</dd>
        <dt className="font-medium">Window</dt>
        <dd>
          {formatInstant(question.from)} to {formatInstant(question.to)}
        </dd>
        <dt className="font-medium">Radius</dt>
        <dd>{question.radiusM} m</dd>
        <dt className="font-medium">Asked by</dt>
        <dd data-testid="report-asked-by">{askedBy}</dd>
        <dt className="font-medium">Asked at</dt>
        <dd>{formatInstant(new Date(askedAt).toISOString())}</dd>
        <dt className="font-medium">People near</dt>
        <dd>{answer.data.length}</dd>
      </dl>
      {answer.data.length === 0 ? <p>Nobody came within {question.radiusM} m in this window.</p> : <NearTable rows={answer.data} caption="People near, report" testId="report-table" />}
    </section>
  );
}
