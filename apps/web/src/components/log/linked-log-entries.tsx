// "Log entries" on a prisoner's, an alert's or an incident's screen: the newest control-room log entries linked to
// that record, with a way to the whole log.
import { Link } from 'react-router';
import type { MessageLinkKind } from '@prison/shared/message';
import { errorMessage } from '../../lib/api-client';
import { LINKED_ENTRIES_SHOWN, useLinkedLogEntries } from '../../lib/log-entries';
import { EmptyState, ErrorText, Loading } from '../ui/status';
import { LogEntry } from './log-entry';

const NOUN: Record<MessageLinkKind, string> = { prisoner: 'prisoner', alert: 'alert', incident: 'incident' };

export function LinkedLogEntries({ kind, id, headingLevel = 2 }: { kind: MessageLinkKind; id: number; headingLevel?: 2 | 3 }) {
  const entries = useLinkedLogEntries(kind, id);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const list = entries.data?.messages ?? [];
  return (
    <section aria-label="Log entries" data-testid={`linked-log-entries-${kind}`} className="flex flex-col gap-2">
      <Heading className="font-semibold text-slate-900">Log entries</Heading>
      {entries.isPending ? (
        <Loading text="Loading log entries..." />
      ) : entries.isError ? (
        <ErrorText>{errorMessage(entries.error, 'Failed to fetch the log entries.')}</ErrorText>
      ) : list.length === 0 ? (
        <EmptyState>No log entry is about this {NOUN[kind]}.</EmptyState>
      ) : (
        <>
          <ol className="flex flex-col gap-2">
            {list.map((message) => (
              <li key={message.id}>
                <LogEntry message={message} compact />
              </li>
            ))}
          </ol>
          {entries.data.hasMore && (
            <p className="text-sm text-slate-600">
              The newest {LINKED_ENTRIES_SHOWN} are shown; the rest are in the{' '}
              <Link to="/communication" className="text-blue-800 underline">
                control-room log
              </Link>
              .
            </p>
          )}
        </>
      )}
    </section>
  );
}
