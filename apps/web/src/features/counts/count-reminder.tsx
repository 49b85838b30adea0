// A scheduled count due (the server's countDue event, to the officers of that block): a toast that says so.
import { useSocketEvent } from '../../lib/realtime';
import { useToast } from '../../lib/toast';

export function CountReminder() {
  const toast = useToast();
  useSocketEvent('countDue', (due) => toast.notify(due.message, 'info'));
  return null;
}
