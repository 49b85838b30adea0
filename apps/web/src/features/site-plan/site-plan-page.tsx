// The site plan screen (administrators): the plans with their default, an upload placed by three points,
// replace (a new image or new points), make default and delete (confirmed).
import { useState } from 'react';
import type { SitePlan } from '@prison/shared/site-plan';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useSitePlans } from '../../map/site-plan-layer';
import { usePlanMutations } from './api';
import { PlanPlacement } from './plan-placement';

const TYPE_NAMES: Record<SitePlan['content_type'], string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/svg+xml': 'SVG' };

export function SitePlanPage() {
  const plans = useSitePlans();
  const { makeDefault, remove } = usePlanMutations();
  const [editing, setEditing] = useState<SitePlan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SitePlan | null>(null);

  return (
    <Page
      title="Site plan"
      actions={
        editing === null && (
          <Button onClick={() => setEditing('new')} data-testid="plan-upload">
            Upload a plan
          </Button>
        )
      }
    >
      <p className="mb-4 max-w-3xl text-sm text-slate-700">
        The prison&apos;s own plan is drawn under the geofences and markers of every map, so the maps need no internet.
        Place it with three points: a point on the plan, then the same spot on the map.
      </p>
      {editing !== null && (
        <div className="mb-6">
          <PlanPlacement key={editing === 'new' ? 'new' : editing.id} existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        </div>
      )}
      {plans.isPending ? (
        <Loading />
      ) : plans.isError ? (
        <ErrorText>{errorMessage(plans.error, 'The site plans could not be loaded.')}</ErrorText>
      ) : plans.data.length === 0 ? (
        <EmptyState>No site plan yet. Upload the prison&apos;s plan to draw it under every map.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded border border-slate-200 bg-white" data-testid="plan-list">
          {plans.data.map((plan) => (
            <li key={plan.id} className="flex flex-wrap items-center gap-3 p-3" data-testid="plan-row">
              <img src={plan.image_url} alt="" className="h-12 w-16 rounded border border-slate-200 object-contain" />
              <div className="min-w-0 flex-1">
                <p className="font-medium text-slate-900">
                  {plan.name}
                  {plan.is_default && <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-900">Default</span>}
                </p>
                <p className="text-xs text-slate-600">
                  {TYPE_NAMES[plan.content_type]} · {plan.width} × {plan.height} px · {(plan.byte_size / 1024).toFixed(0)} KB
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {!plan.is_default && (
                  <Button size="sm" variant="secondary" busy={makeDefault.isPending && makeDefault.variables === plan.id} onClick={() => makeDefault.mutate(plan.id)}>
                    Make default
                  </Button>
                )}
                <Button size="sm" variant="secondary" onClick={() => setEditing(plan)}>
                  Replace
                </Button>
                <Button size="sm" variant="danger" onClick={() => setDeleting(plan)}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this site plan?"
        message="The maps stop drawing it. This cannot be undone."
        subject={deleting?.name}
        confirmLabel="Delete plan"
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error, 'The plan could not be deleted') : null}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        onCancel={() => setDeleting(null)}
      />
    </Page>
  );
}
