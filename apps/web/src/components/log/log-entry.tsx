// One entry of the control-room log as every screen shows it: its type, author and time, its words, the records it
// is about (as links where they have a page) and, for a handover, who confirmed reading it and when.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { LogMessage, MessageLink } from '@prison/shared/message';
import { MESSAGE_TYPE_LABELS, type MessageType } from '@prison/shared/message-types';

const TYPE_TONES: Record<MessageType, string> = {
  note: 'bg-slate-100 text-slate-800 ring-slate-600/20',
  handover: 'bg-indigo-100 text-indigo-800 ring-indigo-600/20',
  radio_call: 'bg-sky-100 text-sky-900 ring-sky-600/20',
  lockdown: 'bg-red-100 text-red-800 ring-red-600/20',
  incident: 'bg-amber-100 text-amber-900 ring-amber-600/20',
};

export const formatLogTime = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function LogTypeBadge({ type }: { type: MessageType }) {
  return (
    <span
      data-testid="log-type"
      className={clsx('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TYPE_TONES[type])}
    >
      {MESSAGE_TYPE_LABELS[type]}
    </span>
  );
}

const chipClass = 'inline-flex max-w-full items-center rounded-md border border-slate-200 bg-slate-50 px-2 py-1 text-xs break-words';

function LinkChip({ link }: { link: MessageLink }) {
  const to = link.kind === 'prisoner' ? `/prisoner-details/${link.id}` : link.kind === 'incident' ? `/incidents/${link.id}` : null;
  if (!to) return <span className={chipClass}>{link.label}</span>;
  return (
    <Link to={to} className={clsx(chipClass, 'text-blue-800 underline-offset-2 hover:underline')}>
      {link.label}
    </Link>
  );
}

export function LogEntry({ message, actions, compact = false }: { message: LogMessage; actions?: ReactNode; compact?: boolean }) {
  return (
    <article
      data-testid="log-entry"
      data-type={message.type}
      aria-label={`${MESSAGE_TYPE_LABELS[message.type]} by ${message.author_name}, ${formatLogTime(message.created_at)}`}
      className={clsx('rounded-lg border border-slate-200 bg-white shadow-sm', compact ? 'p-3' : 'p-4')}
    >
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="flex flex-wrap items-center gap-2">
          <LogTypeBadge type={message.type} />
          <span className="font-semibold text-slate-900">{message.author_name}</span>
        </span>
        <time dateTime={message.created_at} title={`${message.created_at} (UTC)`} className="text-slate-600">
          {formatLogTime(message.created_at)}
        </time>
      </div>
      <p className="break-words whitespace-pre-wrap text-slate-800">{message.body}</p>
      {message.links.length > 0 && (
        <ul aria-label="About" className="mt-2 flex flex-wrap gap-1.5">
          {message.links.map((link) => (
            <li key={`${link.kind}-${link.id}`} className="max-w-full">
              <LinkChip link={link} />
            </li>
          ))}
        </ul>
      )}
      {message.type === 'handover' && (
        <p data-testid="handover-reads" className="mt-2 text-xs text-slate-600">
          {message.reads.length === 0
            ? 'Not confirmed read yet.'
            : `Confirmed read by ${message.reads.map((read) => `${read.name} (${formatLogTime(read.at)})`).join(', ')}.`}
        </p>
      )}
      {actions && <div className="mt-3 flex flex-wrap justify-end gap-2">{actions}</div>}
    </article>
  );
}
