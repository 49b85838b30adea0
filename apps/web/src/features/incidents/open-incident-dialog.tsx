// "Open an incident": from the replay (its window and chosen people) or the alerts screen (the alert, its person and a
// window around it). A description is asked; the incident page opens once it is stored.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { FormError, TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { formatPlayerTime } from '../../lib/time-range';
import { useOpenIncident } from './api';

export interface IncidentDraft {
  window: { from: string; to: string };
  alert_ids?: number[];
  prisoner_ids?: number[];
  staff_ids?: number[];
  /** What is linked, in words: "Alert #12 and its prisoner". */
  linked: string;
  description?: string;
}

export function OpenIncidentDialog({ draft, onClose }: { draft: IncidentDraft | null; onClose(): void }) {
  const navigate = useNavigate();
  const open = useOpenIncident();
  const [description, setDescription] = useState(draft?.description ?? '');
  const submit = () => {
    if (!draft) return;
    const { linked: _linked, description: _initial, ...input } = draft;
    open.mutate(
      { ...input, description },
      { onSuccess: (created) => navigate(`/incidents/${created.id}`) },
    );
  };
  return (
    <Modal
      open={draft !== null}
      onOpenChange={(next) => !next && onClose()}
      title="Open an incident"
      description={draft ? `${formatPlayerTime(Date.parse(draft.window.from))} to ${formatPlayerTime(Date.parse(draft.window.to))}. ${draft.linked}` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={open.isPending || description.trim() === ''}>
            Open incident
          </Button>
        </>
      }
    >
      <TextAreaField label="What happened" value={description} onChange={(event) => setDescription(event.target.value)} required maxLength={5000} autoFocus />
      <FormError message={open.isError ? errorMessage(open.error, 'The incident could not be opened.') : null} />
    </Modal>
  );
}
