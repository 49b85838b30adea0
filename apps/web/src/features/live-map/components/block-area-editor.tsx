// Drawing a block's area on the live map: pick a block, "Edit area" puts its polygon (or, for a
// block without one, a square at the map's centre) on the map with the geofence editor's handles; Save sends it.
import { useState } from 'react';
import type { GeoPoint } from '@prison/shared/geofence';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/field';
import { ErrorText } from '../../../components/ui/status';
import { errorMessage } from '../../../lib/api-client';
import { useBlockNames } from '../../../lib/block-names';
import { useToast } from '../../../lib/toast';
import { useBlockAreas, useSetBlockArea } from '../api/block-areas';

export interface AreaDraft {
  block: string;
  points: GeoPoint[];
}

/** A square of about 60 m around a point: a start to drag into shape. */
export function squareAround({ lat, lng }: GeoPoint): GeoPoint[] {
  const dLat = 0.00027;
  const dLng = dLat / Math.max(0.1, Math.cos((lat * Math.PI) / 180));
  return [
    { lat: lat - dLat, lng: lng - dLng },
    { lat: lat - dLat, lng: lng + dLng },
    { lat: lat + dLat, lng: lng + dLng },
    { lat: lat + dLat, lng: lng - dLng },
  ];
}

interface BlockAreaEditorProps {
  draft: AreaDraft | null;
  onStart(draft: AreaDraft): void;
  onEnd(): void;
  mapCentre(): GeoPoint | null;
}

export function BlockAreaEditor({ draft, onStart, onEnd, mapCentre }: BlockAreaEditorProps) {
  const blocks = useBlockNames();
  const areas = useBlockAreas();
  const save = useSetBlockArea();
  const toast = useToast();
  const [block, setBlock] = useState('');
  const [error, setError] = useState<string | null>(null);

  const start = () => {
    if (!block) return setError('Choose a block');
    const centre = mapCentre();
    const stored = areas.data?.find((area) => area.block === block)?.points;
    if (!stored && !centre) return setError('The map is not ready');
    setError(null);
    onStart({ block, points: stored ?? squareAround(centre!) });
  };
  const send = () => {
    if (!draft) return;
    save.mutate(draft, {
      onSuccess: () => {
        toast.notify(`Area of block ${draft.block} saved`, 'success');
        onEnd();
      },
      onError: (failure) => setError(errorMessage(failure, 'The area could not be saved.')),
    });
  };

  return (
    <section aria-labelledby="block-areas-title" className="flex flex-col gap-2 border-b border-slate-200 p-3">
      <h2 id="block-areas-title" className="text-sm font-semibold">
        Block areas
      </h2>
      {draft ? (
        <>
          <p className="text-sm text-slate-700">
            Drag the corners of block {draft.block}&apos;s area on the map; a midpoint adds a corner.
          </p>
          <div className="flex gap-2">
            <Button size="sm" busy={save.isPending} onClick={send}>
              Save area
            </Button>
            <Button size="sm" variant="secondary" onClick={onEnd}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <SelectField
              label="Block"
              placeholder="Choose a block"
              options={blocks.data ?? []}
              value={block}
              onChange={(event) => setBlock(event.target.value)}
            />
          </div>
          <Button size="sm" variant="secondary" onClick={start}>
            Edit area
          </Button>
        </div>
      )}
      {error && <ErrorText>{error}</ErrorText>}
    </section>
  );
}
