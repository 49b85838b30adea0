// "Who was near" (/investigations/near): everyone who came within a radius of a prisoner, a staff member or
// a place over a window, as a table and on the map, with a CSV export, a printable report for the case file, and the
// contacts of the subject with a second person. The question lives in the URL, so the incident page can link here.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Download, Printer } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useClientSettings } from '../../lib/client-settings';
import { useAuth } from '../../lib/auth';
import { useNear } from './api';
import { ContactsPanel } from './contacts-panel';
import { NearForm } from './near-form';
import { downloadText, nearCsv } from './near-csv';
import { NearMap } from './near-map';
import { paramsOf, parseSubject, questionFromParams, subjectLabel, subjectText, type NearQuestion, type Subject } from './near-params';
import { NearReport } from './near-report';
import { NearTable } from './near-table';

export function NearPage() {
  const [params, setParams] = useSearchParams();
  const { question, draft } = questionFromParams(params);
  const other = parseSubject(params.get('with'));
  const [picked, setPicked] = useState<Subject | null>(null);
  const near = useNear(question);
  const settings = useClientSettings();
  const { name } = useAuth();

  const ask = (next: NearQuestion) => setParams(paramsOf(next));
  const setOther = (next: Subject) => {
    if (!question) return;
    const updated = paramsOf(question);
    updated.set('with', subjectText(next));
    setParams(updated);
  };
  const formDraft = { ...draft, subject: picked ?? draft.subject };

  return (
    <Page title="Who was near">
      <div className="grid gap-4 md:grid-cols-[18rem_1fr]">
        <NearForm key={params.toString()} draft={formDraft} onAsk={ask} />
        <div className="flex min-w-0 flex-col gap-4">
          {settings.isPending ? (
            <Loading text="Loading map..." />
          ) : settings.isError ? (
            <ErrorText>{errorMessage(settings.error, 'Failed to load the map settings.')}</ErrorText>
          ) : (
            <NearMap
              settings={settings.data}
              subject={formDraft.subject}
              radiusM={draft.radiusM}
              answer={near.data}
              onPickPlace={(lat, lng) => setPicked({ kind: 'place', lat, lng })}
            />
          )}
          {!question ? (
            <EmptyState>Choose a prisoner, a staff member or a place (click the map), a window and a radius.</EmptyState>
          ) : near.isPending ? (
            <Loading text="Finding who was near..." />
          ) : near.isError ? (
            <ErrorText>{errorMessage(near.error, 'Failed to find who was near.')}</ErrorText>
          ) : (
            <>
              <section className="flex flex-col gap-2 print:hidden" aria-labelledby="near-title">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 id="near-title" className="text-lg font-semibold text-slate-900">
                    Near {subjectLabel(question.subject)} within {question.radiusM} m: {near.data.data.length}
                  </h2>
                  <div className="flex gap-2">
                    <Button variant="secondary" size="sm" onClick={() => downloadText(nearCsv(near.data.data), `who-was-near-${subjectText(question.subject).replace(/[:,]/g, '-')}.csv`)}>
                      <Download className="h-4 w-4" aria-hidden /> Export CSV
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => window.print()}>
                      <Printer className="h-4 w-4" aria-hidden /> Print report
                    </Button>
                  </div>
                </div>
                {near.data.data.length === 0 ? (
                  <EmptyState>Nobody came within {question.radiusM} m in this window.</EmptyState>
                ) : (
                  <NearTable rows={near.data.data} caption="People near" testId="near-table" />
                )}
              </section>
              <NearReport question={question} answer={near.data} askedBy={name ?? ''} askedAt={near.dataUpdatedAt} />
              {question.subject.kind !== 'place' && <ContactsPanel key={subjectText(question.subject)} question={question} other={other} onOther={setOther} />}
            </>
          )}
        </div>
      </div>
    </Page>
  );
}
