// Alert escalation on /profile (decision 060): the channels in force, "Send test message" for whoever may change
// settings, and the delivery log (sent, retrying, failed, cancelled; times and the last error).
import { useState } from 'react';
import type { AlertDelivery } from '@prison/shared/escalation';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useMay } from '../../lib/use-may';
import { useDeliveries, useSendTest } from './escalation-api';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }) : '';

const STATUS_CLASS: Record<AlertDelivery['status'], string> = {
  sent: 'text-green-800',
  retrying: 'text-amber-800',
  pending: 'text-slate-700',
  failed: 'text-red-700',
  cancelled: 'text-slate-600',
};

function what(delivery: AlertDelivery): string {
  if (delivery.test) return 'Test message';
  const about = delivery.prisoner_name ? `${delivery.prisoner_name}: ` : '';
  return `Alert ${delivery.alert_id ?? '(deleted)'} · ${about}${delivery.alert_details ?? ''}`;
}

export function EscalationSection() {
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(page);
  const sendTest = useSendTest();
  const mayTest = useMay('settings.write');

  if (deliveries.isPending) return <Loading text="Loading the delivery log..." />;
  if (deliveries.isError) return <ErrorText>{errorMessage(deliveries.error, 'Failed to fetch the delivery log.')}</ErrorText>;
  const { settings, data, totalPages } = deliveries.data;
  const channels = settings.channels.map((c) => (c === 'email' ? 'email' : 'webhook')).join(' and ');

  return (
    <>
      <p className="mb-3 text-sm text-slate-700" data-testid="escalation-settings">
        {channels
          ? `A Critical alert not acknowledged within ${settings.escalateAfterSeconds} seconds is sent by ${channels}.`
          : 'Escalation is off: no email (SMTP_URL, ALERT_EMAIL_TO) or webhook (ALERT_WEBHOOK_URL) is configured.'}
      </p>
      {mayTest && channels && (
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <Button variant="secondary" busy={sendTest.isPending} onClick={() => sendTest.mutate()}>
            Send test message
          </Button>
          <span role="status" className="text-sm" data-testid="escalation-test-result">
            {sendTest.isError
              ? errorMessage(sendTest.error, 'The test message could not be sent.')
              : sendTest.data?.deliveries
                  .map((d) => `${d.channel}: ${d.status === 'sent' ? 'sent' : `failed (${d.last_error ?? 'no reason given'})`}`)
                  .join(', ')}
          </span>
        </div>
      )}
      {data.length === 0 ? (
        <EmptyState>No alert has been escalated yet.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Escalation deliveries">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th className="py-2 pr-4 font-medium">What</th>
                <th className="py-2 pr-4 font-medium">Channel</th>
                <th className="py-2 pr-4 font-medium">Status</th>
                <th className="py-2 pr-4 font-medium">Tries</th>
                <th className="py-2 pr-4 font-medium">Last try</th>
                <th className="py-2 pr-4 font-medium">Sent or next try</th>
                <th className="py-2 pr-4 font-medium">Last error</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.id} data-testid="delivery-row" className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-4">{what(d)}</td>
                  <td className="py-2 pr-4">{d.channel}</td>
                  <td className={`py-2 pr-4 font-medium ${STATUS_CLASS[d.status]}`}>{d.status}</td>
                  <td className="py-2 pr-4">{d.attempts}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{when(d.last_attempt_at)}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{d.sent_at ? when(d.sent_at) : when(d.next_attempt_at)}</td>
                  <td className="py-2 pr-4 break-words text-slate-700">{d.last_error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {totalPages > 1 && <Pagination page={page} totalPages={totalPages} onPageChange={setPage} label="Delivery log pages" />}
    </>
  );
}
