// The control-room log (/communication): a shared, timestamped log between admins on duty, newest first, live.
import { useMay } from '../../lib/use-may';
import { useState, type FormEvent } from 'react';
import { MESSAGE_MAX_LENGTH } from '@prison/shared/message';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useLiveMessages, useMessages, usePostMessage } from './api';

function formatWhen(iso: string) {
  const date = new Date(iso);
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function MessageComposer() {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const post = usePostMessage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (!text) return setError('body is required');
    setError(null);
    post.mutate(text, {
      onSuccess: () => setBody(''),
      onError: (failure) => setError(errorMessage(failure, 'The message could not be posted.')),
    });
  };

  return (
    <form
      onSubmit={submit}
      className="mb-6 flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <TextAreaField
        label="New log entry"
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        value={body}
        error={error ?? undefined}
        placeholder="Shift handover, notes on an incident…"
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          // Ctrl+Enter posts, so the keyboard alone is enough.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
        }}
      />
      <div className="flex items-center justify-between text-xs text-slate-500">
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
  const messages = useMessages();
  useLiveMessages();
  const all = messages.data?.pages.flatMap((page) => page.messages) ?? [];

  return (
    <Page title="Control-room log">
      {mayPost && <MessageComposer />}
      {messages.isPending ? (
        <Loading text="Loading messages..." />
      ) : messages.isError ? (
        <ErrorText>{errorMessage(messages.error, 'Failed to fetch messages.')}</ErrorText>
      ) : all.length === 0 ? (
        <EmptyState>No messages yet.</EmptyState>
      ) : (
        <>
          <ol aria-label="Log entries" className="flex flex-col gap-3">
            {all.map((message) => (
              <li
                key={message.id}
                data-testid="log-entry"
                className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <div className="mb-1 flex flex-wrap items-baseline justify-between gap-2 text-sm">
                  <span className="font-semibold text-slate-900">{message.author_name}</span>
                  <time dateTime={message.created_at} title={`${message.created_at} (UTC)`} className="text-slate-500">
                    {formatWhen(message.created_at)}
                  </time>
                </div>
                <p className="break-words whitespace-pre-wrap text-slate-800">{message.body}</p>
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
