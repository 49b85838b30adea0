// Contacts of a pair: every time the subject and a second person were within the radius, with start, end and the
// closest distance ("did they meet before the fight?"). The second person is in the URL (`with=prisoner:ID`) so a
// keep-apart pair can link straight here.
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { formatInstant } from './local-time';
import { useContacts } from './api';
import { subjectLabel, type NearQuestion, type Subject } from './near-params';

const KINDS = ['Prisoner', 'Staff member'] as const;

export function ContactsPanel({ question, other, onOther }: { question: NearQuestion; other: Subject | null; onOther(other: Subject): void }) {
  const [kind, setKind] = useState<(typeof KINDS)[number]>(other?.kind === 'staff' ? 'Staff member' : 'Prisoner');
  const [id, setId] = useState(other && other.kind !== 'place' ? String(other.id) : '');
  const [error, setError] = useState<string | null>(null);
  const contacts = useContacts(question, other);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{1,9}$/.test(id) || Number(id) < 1) return setError('Enter the second person’s number.');
    setError(null);
    onOther({ kind: kind === 'Prisoner' ? 'prisoner' : 'staff', id: Number(id) });
  };

  return (
    <section className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 print:hidden" aria-labelledby="contacts-title">
      <h2 id="contacts-title" className="text-lg font-semibold text-slate-900">
        Contacts with a second person
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Contacts with a second person">
        <SelectField label="Second person" options={KINDS} value={kind} onChange={(e) => setKind(e.target.value as (typeof KINDS)[number])} />
        <TextField label="Number" inputMode="numeric" value={id} onChange={(e) => setId(e.target.value)} />
        <Button type="submit">Show contacts</Button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {other === null ? null : contacts.isPending ? (
        <Loading text="Finding contacts..." />
      ) : contacts.isError ? (
        <ErrorText>{errorMessage(contacts.error, 'Failed to fetch the contacts.')}</ErrorText>
      ) : contacts.data.data.length === 0 ? (
        <EmptyState>
          {subjectLabel(question.subject)} and {subjectLabel(other)} were never within {question.radiusM} m in this window.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[28rem] text-left text-sm" data-testid="contacts-table">
            <caption className="sr-only">Contacts</caption>
            <thead className="border-b border-slate-300 text-slate-700">
              <tr>
                <th scope="col" className="px-2 py-1">Start</th>
                <th scope="col" className="px-2 py-1">End</th>
                <th scope="col" className="px-2 py-1 text-right">Closest (m)</th>
              </tr>
            </thead>
            <tbody>
              {contacts.data.data.map((c) => (
                <tr key={c.start_at} className="border-b border-slate-100">
                  <td className="px-2 py-1 text-slate-900">{formatInstant(c.start_at)}</td>
                  <td className="px-2 py-1 text-slate-900">{formatInstant(c.end_at)}</td>
                  <td className="px-2 py-1 text-right text-slate-900">{c.min_distance_m.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
