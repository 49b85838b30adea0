// The default site plan under every map (live, history, replay, details), with an opacity slider whose
// value this browser remembers.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useMap } from 'react-leaflet';
import { sitePlanFit, type SitePlan } from '@prison/shared/site-plan';
import { planCorners } from '@prison/shared/site-plan-fit';
import { api } from '../lib/api-client';
import { AffineImageLayer } from './affine-image-layer';
import { MapControl } from './map-control';

const OPACITY_KEY = 'sitePlanOpacity';
const DEFAULT_OPACITY = 0.85;

export function useSitePlans() {
  return useQuery({ queryKey: ['site-plans'], queryFn: ({ signal }) => api.get<SitePlan[]>('/site-plans', undefined, signal), staleTime: 60_000 });
}

function storedOpacity(): number {
  const value = Number(localStorage.getItem(OPACITY_KEY));
  return localStorage.getItem(OPACITY_KEY) !== null && value >= 0 && value <= 1 ? value : DEFAULT_OPACITY;
}

/** Draws one plan on the map it is inside of; the placement screen draws its preview with it too. */
export function PlanImage({ url, plan, opacity }: { url: string; plan: Pick<SitePlan, 'points' | 'width' | 'height' | 'name'>; opacity: number }) {
  const map = useMap();
  const [layer, setLayer] = useState<AffineImageLayer | null>(null);
  const fit = sitePlanFit(plan);
  const key = JSON.stringify([url, plan.points, plan.width, plan.height]);
  useEffect(() => {
    if (!fit) return;
    const created = new AffineImageLayer(url, planCorners(fit, plan.width, plan.height), { width: plan.width, height: plan.height }, opacity, `Site plan: ${plan.name}`);
    created.addTo(map);
    setLayer(created);
    return () => {
      created.remove();
    };
    // Rebuilt when the image or its placement changes; opacity is set below without a rebuild.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  useEffect(() => layer?.setOpacity(opacity), [layer, opacity]);
  return null;
}

export function DefaultSitePlan() {
  const plans = useSitePlans();
  const [opacity, setOpacity] = useState(storedOpacity);
  const plan = plans.data?.find((candidate) => candidate.is_default);
  if (!plan) return null;
  return (
    <>
      <PlanImage url={plan.image_url} plan={plan} opacity={opacity} />
      <MapControl position="bottomleft">
        <label className="flex items-center gap-2 rounded bg-white/95 px-2 py-1 text-xs text-slate-800 shadow">
          Site plan
          <input
            type="range"
            min={0}
            max={100}
            step={5}
            value={Math.round(opacity * 100)}
            aria-label="Site plan opacity"
            data-testid="site-plan-opacity"
            onChange={(event) => {
              const next = Number(event.target.value) / 100;
              setOpacity(next);
              localStorage.setItem(OPACITY_KEY, String(next));
            }}
          />
        </label>
      </MapControl>
    </>
  );
}
