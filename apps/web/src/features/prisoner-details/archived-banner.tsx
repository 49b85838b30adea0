// An archived prisoner's details (decision 042): who archived the record and when, and Restore.
import { useMay } from '../../lib/use-may';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Prisoner } from '@prison/shared/prisoner';
import { api, errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { Button } from '../../components/ui/button';

export function ArchivedBanner({ prisoner }: { prisoner: Prisoner }) {
  const mayRestore = useMay('records.write');
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!prisoner.archived_at) return null;

  async function restore() {
    setBusy(true);
    setError(null);
    try {
      await api.post<Prisoner>(`/prisoner/restore/${prisoner.prisoner_id}`);
      await queryClient.invalidateQueries({ queryKey: ['prisoners'] });
      void queryClient.invalidateQueries({ queryKey: ['cells'] });
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to restore the prisoner. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-label="Archived record"
      role="status"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 lg:col-span-3"
    >
      <p className="flex-1">
        <strong>Archived on {formatAlertDateTime(prisoner.archived_at)}</strong>
        {prisoner.archived_by ? ` by ${prisoner.archived_by}` : ''}. This record is out of every list; its track, alerts
        and pairs are kept. Restore it to change it.
      </p>
      {mayRestore && (
        <Button onClick={() => void restore()} busy={busy}>
          Restore
        </Button>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}
