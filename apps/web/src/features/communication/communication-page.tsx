// The control-room log (/communication): a shared, timestamped log between staff on duty, newest first, live; each
// entry of a type and about the prisoners, alerts and incidents it links; searched by words, type and time.
import { useMay } from '../../lib/use-may';
import { useState, type FormEvent } from 'react';
import { MESSAGE_MAX_LENGTH, MESSAGE_TYPE_LABELS, MESSAGE_TYPES, type MessageType } from '@prison/shared/message';
import { Button } from '../../components/ui/button';
import { SelectField, TextAreaField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { LogEntry } from '../../components/log/log-entry';
import { errorMessage } from '../../lib/api-client';
import { useLiveLogEntries } from '../../lib/log-entries';
import { LinkPicker, type PickedLinks } from './link-picker';
import { LogSearchForm } from './log-search-form';
import { useMessages, usePostMessage, type LogSearch } from './api';

const NO_LINKS: PickedLinks = { prisoners: [], alertIds: '', incidentIds: '' };

/** "12, 15" as [12, 15]; null when something else was typed. */
function numbers(text: string): number[] | null {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.some((part) => !/^#?\d{1,9}$/.test(part))) return null;
  return [...new Set(parts.map((part) => Number(part.replace('#', ''))))];
}

function MessageComposer() {
  const [body, setBody] = useState('');
  const [type, setType] = useState<MessageType>('note');
  const [links, setLinks] = useState<PickedLinks>(NO_LINKS);
  const [error, setError] = useState<string | null>(null);
  const post = usePostMessage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (!text) return setError('body is required');
    const alertIds = numbers(links.alertIds);
    const incidentIds = numbers(links.incidentIds);
    if (!alertIds) return setError('Alert numbers are the numbers shown as #12 on the alerts screen, separated by commas.');
    if (!incidentIds) return setError('Incident numbers are the numbers shown as #3 on the incidents screen, separated by commas.');
    setError(null);
    post.mutate(
      { body: text, type, prisoner_ids: links.prisoners.map((p) => p.id), alert_ids: alertIds, incident_ids: incidentIds },
      {
        onSuccess: () => {
          setBody('');
          setType('note');
          setLinks(NO_LINKS);
        },
        onError: (failure) => setError(errorMessage(failure, 'The message could not be posted.')),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label="Write a log entry"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <TextAreaField
        label="New log entry"
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        value={body}
        error={error ?? undefined}
        placeholder="Shift handover, a radio call, notes on an incident…"
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          // Ctrl+Enter posts, so the keyboard alone is enough.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
        }}
      />
      <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
        <SelectField
          label="Type"
          options={MESSAGE_TYPES}
          optionLabels={MESSAGE_TYPE_LABELS}
          value={type}
          onChange={(event) => setType(event.target.value as MessageType)}
        />
        <LinkPicker value={links} onChange={setLinks} />
      </div>
      {type === 'handover' && (
        <p className="text-sm text-indigo-900">
          Every account that logs in after this entry is asked to confirm reading it; who confirmed, and when, shows on it.
        </p>
      )}
      <div className="flex items-center justify-between gap-2 text-xs text-slate-600">
        <span>
          {body.length} / {MESSAGE_MAX_LENGTH} · Ctrl+Enter to post
        </span>
        <Button type="submit" busy={post.isPending}>
          Post
        </Button>
      </div>
    </form>
  );
}

export function CommunicationPage() {
  const mayPost = useMay('messages.post');
  const [search, setSearch] = useState<LogSearch>({});
  const messages = useMessages(search);
  useLiveLogEntries();
  const all = messages.data?.pages.flatMap((page) => page.messages) ?? [];
  const searching = Object.values(search).some(Boolean);

  return (
    <Page title="Control-room log">
      {mayPost && <MessageComposer />}
      <LogSearchForm onSearch={setSearch} />
      {messages.isPending ? (
        <Loading text="Loading messages..." />
      ) : messages.isError ? (
        <ErrorText>{errorMessage(messages.error, 'Failed to fetch messages.')}</ErrorText>
      ) : all.length === 0 ? (
        <EmptyState>{searching ? 'No log entry matches this search.' : 'No messages yet.'}</EmptyState>
      ) : (
        <>
          <ol aria-label="Log entries" className="flex flex-col gap-3">
            {all.map((message) => (
              <li key={message.id}>
                <LogEntry message={message} />
              </li>
            ))}
          </ol>
          {messages.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                busy={messages.isFetchingNextPage}
                onClick={() => void messages.fetchNextPage()}
              >
                Older messages
              </Button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
