// Registering a reader: its id, name, radius and place, the place typed or picked by clicking on the plan; the secret
// is shown once after registration (only a hash is stored).
import { useState, type FormEvent } from 'react';
import { useMapEvents, CircleMarker } from 'react-leaflet';
import { READER_FORMAT_LABELS, READER_FORMATS, type Reader, type ReaderCreated, type ReaderFormat } from '@prison/shared/reader';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { MapView } from '../../map/map-view';
import { ReaderLayer } from '../../map/reader-layer';
import { useClientSettings } from '../../lib/client-settings';
import { useRegisterReader } from './api';

interface Draft {
  id: string;
  name: string;
  lat: string;
  lng: string;
  radius: string;
  block: string;
  cell: string;
  format: ReaderFormat;
}

const EMPTY: Draft = { id: '', name: '', lat: '', lng: '', radius: '5', block: '', cell: '', format: 'prison' };

/** Clicking on the plan places the reader there. */
function PickPoint({ onPick }: { onPick(lat: number, lng: number): void }) {
  useMapEvents({ click: (event) => onPick(Number(event.latlng.lat.toFixed(7)), Number(event.latlng.lng.toFixed(7))) });
  return null;
}

export function RegisterReaderForm({ readers }: { readers: Reader[] }) {
  const settings = useClientSettings();
  const register = useRegisterReader();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [created, setCreated] = useState<ReaderCreated | null>(null);
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));
  const picked = draft.lat !== '' && draft.lng !== '' && Number.isFinite(Number(draft.lat)) && Number.isFinite(Number(draft.lng));

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const reader = await register.mutateAsync({
        id: draft.id.trim(),
        name: draft.name.trim(),
        lat: Number(draft.lat),
        lng: Number(draft.lng),
        radius_m: Number(draft.radius),
        block_id: draft.block.trim() || null,
        cell_id: draft.cell.trim() || null,
        format: draft.format,
      });
      setCreated(reader);
      setDraft(EMPTY);
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <section aria-labelledby="register-reader" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="register-reader" className="mb-3 text-lg font-semibold text-slate-900">
        Register a reader
      </h2>
      {created && (
        <div role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900" data-testid="reader-secret">
          <p>
            Reader <strong>{created.name}</strong> registered. Its secret is shown this once; enter it in the reader&apos;s
            configuration now:
          </p>
          <code className="mt-2 block break-all rounded bg-white p-2 font-mono">{created.secret}</code>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      )}
      <form onSubmit={(event) => void submit(event)} className="grid gap-3 md:grid-cols-2">
        <div className="grid grid-cols-2 gap-3">
          <TextField label="Reader id" required maxLength={100} value={draft.id} onChange={set('id')} hint="As configured in the reader" />
          <TextField label="Name" required maxLength={100} value={draft.name} onChange={set('name')} />
          <TextField label="Latitude" required inputMode="decimal" value={draft.lat} onChange={set('lat')} hint="Or click on the plan" />
          <TextField label="Longitude" required inputMode="decimal" value={draft.lng} onChange={set('lng')} />
          <TextField label="Radius (m)" required inputMode="decimal" value={draft.radius} onChange={set('radius')} />
          <TextField label="Block (optional)" maxLength={100} value={draft.block} onChange={set('block')} />
          <TextField label="Cell (optional)" maxLength={50} value={draft.cell} onChange={set('cell')} />
          <SelectField label="Message format" options={READER_FORMATS} optionLabels={READER_FORMAT_LABELS} value={draft.format} onChange={set('format')} />
          <div className="col-span-2">
            {register.isError && <ErrorText>{errorMessage(register.error, 'Failed to register the reader.')}</ErrorText>}
            <Button type="submit" busy={register.isPending}>
              Register reader
            </Button>
          </div>
        </div>
        <div className="h-72 min-w-0 overflow-hidden rounded-md border border-slate-200 md:h-auto" data-testid="reader-plan">
          {settings.isPending ? (
            <Loading text="Loading map..." />
          ) : settings.isError ? (
            <ErrorText>{errorMessage(settings.error, 'Failed to load the map settings.')}</ErrorText>
          ) : (
            <MapView settings={settings.data} className="h-full w-full">
              <ReaderLayer readers={readers} />
              {picked && <CircleMarker center={[Number(draft.lat), Number(draft.lng)]} radius={8} pathOptions={{ color: '#1e3a8a', weight: 3 }} />}
              <PickPoint onPick={(lat, lng) => setDraft((d) => ({ ...d, lat: String(lat), lng: String(lng) }))} />
            </MapView>
          )}
        </div>
      </form>
    </section>
  );
}
