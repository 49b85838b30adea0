// The prisoner's photo on the details screen (decision 101): shown large (or the spec's picture when he has none), and
// for records staff a button to upload a PNG or JPEG of at most 5 MB, which the server checks, resizes and strips.
import { useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Prisoner } from '@prison/shared/prisoner';
import { PRISONER_PHOTO_MAX_BYTES } from '@prison/shared/prisoner-identity';
import { api, errorMessage } from '../../lib/api-client';
import { useMay } from '../../lib/use-may';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { PrisonerPhoto } from '../../components/prisoner-identity';
import { PrisonerAvatar } from './avatar';

export function PrisonerPhotoBox({ prisoner }: { prisoner: Prisoner }) {
  const mayWrite = useMay('records.write') && !prisoner.archived_at;
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > PRISONER_PHOTO_MAX_BYTES) return setError('The photo is larger than 5 MB.');
    setError(null);
    setBusy(true);
    try {
      const form = new FormData();
      form.append('photo', file);
      await api.put(`/prisoners/${prisoner.prisoner_id}/photo`, form);
      await queryClient.invalidateQueries({ queryKey: ['prisoners'] });
      notify('Photo saved.');
    } catch (failure) {
      setError(errorMessage(failure, 'The photo could not be saved.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col items-center gap-2">
      {prisoner.photo_digest ? <PrisonerPhoto prisoner={prisoner} size="lg" /> : <PrisonerAvatar gender={prisoner.gender} className="h-32 w-32" />}
      {mayWrite && (
        <>
          <input ref={input} type="file" accept="image/png,image/jpeg" className="sr-only" tabIndex={-1} aria-label="Photo file" onChange={(event) => void upload(event)} data-testid="photo-input" />
          <Button size="sm" variant="secondary" busy={busy} onClick={() => input.current?.click()}>
            {prisoner.photo_digest ? 'Change photo' : 'Upload photo'}
          </Button>
        </>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
