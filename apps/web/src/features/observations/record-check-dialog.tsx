// Recording an observation check: what the officer saw, in at least three words (the server says so too).
import { useState, type FormEvent } from 'react';
import { OBSERVED_MIN_WORDS } from '@prison/shared/observation';
import { Button } from '../../components/ui/button';
import { FormError, TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { useRecordCheck } from './api';

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

export function RecordCheckDialog({ prisoner, onClose }: { prisoner: { id: number; label: string } | null; onClose(): void }) {
  const [observed, setObserved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const record = useRecordCheck();
  const close = () => {
    setObserved('');
    setError(null);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!prisoner) return;
    if (words(observed) < OBSERVED_MIN_WORDS) return setError(`Say what you saw in at least ${OBSERVED_MIN_WORDS} words.`);
    setError(null);
    record.mutate({ prisoner_id: prisoner.id, observed: observed.trim() }, { onSuccess: close, onError: (failure) => setError(errorMessage(failure, 'The check could not be recorded.')) });
  };
  return (
    <Modal open={prisoner !== null} onOpenChange={(open) => !open && close()} title={`Record check: ${prisoner?.label ?? ''}`} description="A check is kept as written; a mistake is corrected by a new entry.">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <TextAreaField
          label="What you saw"
          rows={3}
          maxLength={1000}
          required
          autoFocus
          value={observed}
          placeholder="Asleep on his side, breathing normally"
          onChange={(event) => setObserved(event.target.value)}
        />
        <FormError message={error} margin="mt-0" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" busy={record.isPending}>
            Record check
          </Button>
        </div>
      </form>
    </Modal>
  );
}
