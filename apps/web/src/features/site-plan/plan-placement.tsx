// Placing a plan: a name and a file, then three times a point on the image and its spot on the map; the
// points can also be typed (keyboard). The fit and its error show as soon as the three are there; the map previews
// the plan where they put it.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CircleMarker, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import type { ClientSettings } from '@prison/shared/settings';
import { sitePlanFit, type SitePlan } from '@prison/shared/site-plan';
import { pixelToLatLng } from '@prison/shared/site-plan-fit';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { api, errorMessage } from '../../lib/api-client';
import { MapView } from '../../map/map-view';
import { PlanImage } from '../../map/site-plan-layer';
import { usePlanMutations } from './api';
import { completePoints, fitSummary, type DraftPoint } from './fit-summary';

const EMPTY: DraftPoint = { x: null, y: null, lat: null, lng: null };
type Step = { point: number; on: 'image' | 'map' };

function MapClicks({ onClick }: { onClick(lat: number, lng: number): void }) {
  useMapEvents({ click: (event) => onClick(event.latlng.lat, event.latlng.lng) });
  return null;
}

/**
 * Placing a stored plan again: the map opens on where it lies now (its four corners), not on the configured start,
 * where a prison is a few pixels wide.
 */
function FitStoredPlan({ plan }: { plan: SitePlan }) {
  const map = useMap();
  useEffect(() => {
    const fit = sitePlanFit(plan);
    if (!fit) return;
    const corners = [
      [0, 0],
      [plan.width, 0],
      [0, plan.height],
      [plan.width, plan.height],
    ].map(([x, y]) => pixelToLatLng(fit, x!, y!));
    map.fitBounds(
      corners.map((c) => [c.lat, c.lng] as [number, number]),
      { padding: [16, 16], animate: false },
    );
    // Once, when the screen opens on this plan.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, plan.id]);
  return null;
}

export function PlanPlacement({ existing, onDone }: { existing?: SitePlan; onDone(): void }) {
  const settings = useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => api.get<ClientSettings>('/settings', undefined, signal), staleTime: Infinity });
  const { save } = usePlanMutations();
  const [name, setName] = useState(existing?.name ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [fileUrl, setFileUrl] = useState<string | null>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(existing ? { width: existing.width, height: existing.height } : null);
  const [points, setPoints] = useState<DraftPoint[]>(existing ? existing.points.slice(0, 3) : [EMPTY, EMPTY, EMPTY]);
  const [step, setStep] = useState<Step>({ point: 0, on: 'image' });
  const imageUrl = fileUrl ?? existing?.image_url ?? null;
  const summary = fitSummary(points);
  const complete = completePoints(points);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setFileUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const setPoint = (index: number, change: Partial<DraftPoint>) => setPoints((all) => all.map((p, i) => (i === index ? { ...p, ...change } : p)));
  const placedOnImage = (x: number, y: number) => {
    setPoint(step.point, { x: Math.round(x), y: Math.round(y) });
    setStep({ point: step.point, on: 'map' });
  };
  const placedOnMap = (lat: number, lng: number) => {
    if (step.on !== 'map') return;
    setPoint(step.point, { lat, lng });
    setStep({ point: (step.point + 1) % 3, on: 'image' });
  };
  const preview = useMemo(
    () => (complete && summary.ok && size && imageUrl ? { url: imageUrl, plan: { points: complete, width: size.width, height: size.height, name } } : null),
    [complete, summary.ok, size, imageUrl, name],
  );

  const submit = () => {
    if (!complete) return;
    save.mutate({ id: existing?.id, name, points: complete, file }, { onSuccess: onDone });
  };

  return (
    <section aria-labelledby="plan-placement-title" className="rounded border border-slate-200 bg-white p-4" data-testid="plan-placement">
      <h2 id="plan-placement-title" className="mb-3 text-lg font-semibold text-slate-900">
        {existing ? `Replace or place again: ${existing.name}` : 'Upload a site plan'}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Name" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} data-testid="plan-name" />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {existing ? 'New image (optional): PNG, JPEG or SVG, up to 20 MB' : 'Image: PNG, JPEG or SVG, up to 20 MB'}
          <input
            type="file"
            accept="image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg"
            data-testid="plan-file"
            className="text-sm"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setPoints([EMPTY, EMPTY, EMPTY]);
              setStep({ point: 0, on: 'image' });
            }}
          />
        </label>
      </div>
      <p role="status" className="mt-3 text-sm text-slate-700" data-testid="plan-step">
        {imageUrl ? `Point ${step.point + 1}: click ${step.on === 'image' ? 'a point on the plan' : 'its spot on the map'}.` : 'Choose the image first.'}
      </p>
      <div className="mt-2 grid gap-3 lg:grid-cols-2">
        <div className="relative overflow-auto rounded border border-slate-200 bg-slate-50" style={{ maxHeight: 420 }}>
          {imageUrl && (
            <img
              src={imageUrl}
              alt="The plan: click a point on it"
              data-testid="plan-source-image"
              className="block w-full cursor-crosshair"
              onLoad={(event) => {
                const image = event.currentTarget;
                if (file || !existing) setSize({ width: image.naturalWidth, height: image.naturalHeight });
              }}
              onClick={(event) => {
                const image = event.currentTarget;
                const box = image.getBoundingClientRect();
                // Shown scaled to the pane: back to the image's own pixels.
                const width = size?.width ?? image.naturalWidth;
                const height = size?.height ?? image.naturalHeight;
                placedOnImage(((event.clientX - box.left) * width) / box.width, ((event.clientY - box.top) * height) / box.height);
              }}
            />
          )}
          {imageUrl &&
            size &&
            points.map((p, i) =>
              p.x === null || p.y === null ? null : (
                <span
                  key={i}
                  aria-hidden
                  className="pointer-events-none absolute -translate-x-1/2 -translate-y-1/2 rounded-full bg-brand-800 px-1.5 text-xs font-bold text-white"
                  style={{ left: `${(p.x / size.width) * 100}%`, top: `${(p.y / size.height) * 100}%` }}
                >
                  {i + 1}
                </span>
              ),
            )}
        </div>
        <div className="h-[420px]">
          {settings.data && (
            <MapView settings={settings.data} sitePlan={false} className="h-full w-full">
              <MapClicks onClick={placedOnMap} />
              {existing && <FitStoredPlan plan={existing} />}
              {preview && <PlanImage url={preview.url} plan={preview.plan} opacity={0.7} />}
              {points.map((p, i) =>
                p.lat === null || p.lng === null ? null : (
                  <CircleMarker key={i} center={[p.lat, p.lng]} radius={7} pathOptions={{ color: '#1e3a8a', fillOpacity: 0.9 }}>
                    <Tooltip permanent direction="top">{String(i + 1)}</Tooltip>
                  </CircleMarker>
                ),
              )}
            </MapView>
          )}
        </div>
      </div>
      <table className="mt-3 w-full text-sm" data-testid="plan-points">
        <caption className="text-left font-medium text-slate-800">The three points (click, or type them)</caption>
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col">Point</th>
            <th scope="col">x (px)</th>
            <th scope="col">y (px)</th>
            <th scope="col">Latitude</th>
            <th scope="col">Longitude</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={i}>
              <th scope="row">{i + 1}</th>
              {(['x', 'y', 'lat', 'lng'] as const).map((key) => (
                <td key={key}>
                  <input
                    type="number"
                    step="any"
                    aria-label={`Point ${i + 1} ${key}`}
                    className="w-full min-w-0 rounded border border-slate-300 px-1 py-0.5"
                    value={p[key] ?? ''}
                    onChange={(event) => setPoint(i, { [key]: event.target.value === '' ? null : Number(event.target.value) })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className={summary.ok ? 'mt-2 text-sm text-slate-800' : 'mt-2 text-sm text-amber-800'} data-testid="plan-fit">
        {summary.text}
      </p>
      <FormError message={save.error ? errorMessage(save.error, 'The plan could not be saved') : null} />
      <div className="mt-3 flex gap-2">
        <Button onClick={submit} disabled={!summary.ok || !name.trim() || (!existing && !file)} busy={save.isPending} data-testid="plan-save">
          Save plan
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
