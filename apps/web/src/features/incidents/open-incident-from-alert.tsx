// The alerts screen's "Open incident": the alert, its prisoner and a window of 15 minutes either side of it.
import { useState } from 'react';
import type { AlertRecord } from '@prison/shared/alert';
import { Button } from '../../components/ui/button';
import { useMay } from '../../lib/use-may';
import { OpenIncidentDialog, type IncidentDraft } from './open-incident-dialog';

const AROUND_MS = 15 * 60_000;

export function OpenIncidentFromAlert({ alert }: { alert: Pick<AlertRecord, 'id' | 'timestamp' | 'prisoner_id' | 'details'> }) {
  const mayWrite = useMay('incidents.write');
  const [draft, setDraft] = useState<IncidentDraft | null>(null);
  if (!mayWrite) return null;
  const at = Date.parse(alert.timestamp);
  const open = () =>
    setDraft({
      window: { from: new Date(at - AROUND_MS).toISOString(), to: new Date(at + AROUND_MS).toISOString() },
      alert_ids: [alert.id],
      prisoner_ids: alert.prisoner_id == null ? [] : [alert.prisoner_id],
      linked: `Linked: alert #${alert.id}${alert.prisoner_id == null ? '' : ' and its prisoner'}.`,
      description: alert.details,
    });
  return (
    <>
      <Button size="sm" variant="secondary" onClick={open}>
        Open incident
      </Button>
      <OpenIncidentDialog key={draft ? 'open' : 'closed'} draft={draft} onClose={() => setDraft(null)} />
    </>
  );
}
