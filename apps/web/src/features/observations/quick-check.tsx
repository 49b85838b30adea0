// One-tap checks on standard observation (decision 099): "Seen, well" and "Asleep, breathing seen" record at once;
// "Not in cell" asks where he is first. Each target is at least 44 px high.
import { useState, type FormEvent } from 'react';
import { QUICK_OBSERVATION_LABELS, type QuickObservation } from '@prison/shared/observation';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { useRecordCheck } from './api';

const TAP = 'min-h-11';

export function QuickCheckButtons({ prisonerId, name }: { prisonerId: number; name: string }) {
  const record = useRecordCheck();
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState<QuickObservation | null>(null);
  const tap = (quick: QuickObservation, where?: string) => {
    setError(null);
    setPending(quick);
    record.mutate(
      { prisoner_id: prisonerId, quick, ...(where !== undefined && { where }) },
      {
        onSuccess: () => setAsking(false),
        onError: (failure) => setError(errorMessage(failure, 'The check could not be recorded.')),
        onSettled: () => setPending(null),
      },
    );
  };
  return (
    <div className="mt-2">
      <div className="flex flex-wrap gap-2" role="group" aria-label={`Check ${name}`}>
        {(['seen_well', 'asleep_breathing'] as const).map((quick) => (
          <Button key={quick} className={TAP} busy={pending === quick} onClick={() => tap(quick)} aria-label={`${QUICK_OBSERVATION_LABELS[quick]}: ${name}`}>
            {QUICK_OBSERVATION_LABELS[quick]}
          </Button>
        ))}
        <Button variant="secondary" className={TAP} onClick={() => setAsking(true)} aria-label={`${QUICK_OBSERVATION_LABELS.not_in_cell}: ${name}`}>
          {QUICK_OBSERVATION_LABELS.not_in_cell}
        </Button>
      </div>
      {!asking && <FormError message={error} margin="mt-1" />}
      <WhereDialog
        open={asking}
        name={name}
        busy={pending === 'not_in_cell'}
        error={error}
        onClose={() => {
          setAsking(false);
          setError(null);
        }}
        onRecord={(where) => tap('not_in_cell', where)}
      />
    </div>
  );
}

function WhereDialog({ open, name, busy, error, onClose, onRecord }: { open: boolean; name: string; busy: boolean; error: string | null; onClose(): void; onRecord(where: string): void }) {
  const [where, setWhere] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!where.trim()) return setMissing(true);
    setMissing(false);
    onRecord(where.trim());
  };
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={`Not in cell: ${name}`} description="Say where he is; the check is kept as written.">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <TextField label="Where is he?" maxLength={200} autoFocus value={where} placeholder="Healthcare, with an officer" onChange={(event) => setWhere(event.target.value)} />
        <FormError message={missing ? 'Say where he is.' : error} margin="mt-0" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" className={TAP} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" className={TAP} busy={busy}>
            Record check
          </Button>
        </div>
      </form>
    </Modal>
  );
}
