// /pending-changes: changes that weaken an alarm, waiting for a second administrator (decision 041): list, approve,
// refuse. Approving applies the change through its owning module and reloads what watches it live. Under the
// two-person rule (decision 091) also new administrators and cell moves that lift an alarm; weakenings of Critical and
// Warning zones end by themselves, and GET /pending-changes/weakened names those in force for the staff banner.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { caseloadOf } from '../../lib/caseload';
import {
  activeWeakeningList,
  errorResponse,
  pendingChangeDecisionInput,
  pendingChangeDecisionResponse,
  pendingChangeListResponse,
  pendingChangeParams,
  pendingChangeQuery,
  type GeofenceUpdate,
  type PendingChangeDecision,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { applyGeofenceDelete, applyGeofenceUpdate, revertGeofenceWeakening } from '../geofences/geofence-service';
import { endPair } from '../keep-apart/keep-apart-service';
import { applyAdminChange } from '../profile/admins-service';
import { applyPrisonerMove } from '../prisoners/prisoner-service';
import { decideChange, listActiveWeakenings, listPendingChanges, type ChangeApplier } from './pending-change-service';
import { WeakeningEnds } from './weakening-ends';

/** Each kind of change, applied by the module that owns its target. */
const applyChange: ChangeApplier = async (tx, approver, change) => {
  if (change.targetType === 'geofence' && change.kind === 'update') {
    await applyGeofenceUpdate(tx, approver, change.targetId, change.payload as GeofenceUpdate);
  } else if (change.targetType === 'geofence' && change.kind === 'delete') {
    await applyGeofenceDelete(tx, approver, change.targetId);
  } else if (change.targetType === 'keep_apart' && change.kind === 'end') {
    await endPair(tx, approver, Number(change.targetId), change.reason);
  } else if (change.targetType === 'admin' && (change.kind === 'create' || change.kind === 'role')) {
    await applyAdminChange(tx, approver, change);
  } else if (change.targetType === 'prisoner' && change.kind === 'move') {
    await applyPrisonerMove(tx, approver, Number(change.targetId), change.payload);
  } else {
    throw new Error(`no applier for ${change.targetType} ${change.kind}`);
  }
};

const pendingChangesRoutes: FastifyPluginAsyncZod = async (app) => {
  const geofencesChanged = async () => {
    // Committed already: a failed reload is logged (the next reload catches up), not answered as a failure.
    await app.reloadGeofences().catch((error: unknown) => app.databaseHealth.failed(error, 'geofence engine reload'));
    app.realtime.toBrowsers().emit('dataChanged', 'geofences');
    await app.cluster.alerts.changed(); // the zone's ended alerts, in every process (decision 039)
  };

  const weakeningEnds = new WeakeningEnds({
    db: app.db,
    revert: revertGeofenceWeakening,
    isLeader: () => app.cluster.isLeader(),
    failed: (error) => app.databaseHealth.failed(error, 'weakening end'),
    reverted: async () => {
      app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
      await geofencesChanged();
    },
  });
  app.addHook('onReady', async () => weakeningEnds.start());
  app.addHook('onClose', async () => weakeningEnds.stop());

  const decide = (decision: PendingChangeDecision) =>
    async function (request: {
      params: { id: number };
      body?: { note?: string | undefined } | null | undefined;
    } & Parameters<typeof auditActor>[0]) {
      const change = await decideChange(
        app.db,
        auditActor(request),
        request.params.id,
        decision,
        request.body?.note,
        applyChange,
      );
      app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
      if (decision === 'approved') {
        // Committed already: a failed reload is logged (the next reload catches up), not answered as a failure.
        if (change.target_type === 'geofence') {
          await geofencesChanged();
        } else if (change.target_type === 'admin') {
          app.realtime.toBrowsers().emit('dataChanged', 'admins');
        } else if (change.target_type === 'prisoner') {
          for (const topic of ['prisoners', 'cells']) app.realtime.toBrowsers().emit('dataChanged', topic);
          // His cell's block changed: the geofences that apply to his tracker follow (decision 033).
          await app.tracking.wearersChanged().catch((error: unknown) => app.databaseHealth.failed(error, 'wearers reload'));
        } else {
          await app.reloadKeepApart().catch((error: unknown) => app.log.error({ err: error }, 'keep-apart pairs not reloaded'));
          app.realtime.toBrowsers().emit('dataChanged', 'keep-apart');
        }
      }
      const verb = decision === 'approved' ? 'approved and applied' : 'refused: nothing changed';
      return { message: `Change to ${change.target_name} ${verb}.`, change };
    };

  app.get(
    '/pending-changes',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['pending-changes'],
        summary: 'Changes that weaken an alarm: pending (default), decided or all, newest first',
        querystring: pendingChangeQuery,
        response: { 200: pendingChangeListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listPendingChanges(app.db, request.query, caseloadOf(request)) }),
  );

  app.get(
    '/pending-changes/weakened',
    {
      // Every staff screen shows the banner of a weakened Critical zone: every role reads it.
      config: { access: 'records.read' },
      schema: {
        tags: ['pending-changes'],
        summary:
          'The approved weakenings of Critical and Warning zones still in force, with who asked, who approved and until when, soonest end first',
        response: { 200: activeWeakeningList },
      },
    },
    async () => ({ data: await listActiveWeakenings(app.db) }),
  );

  const decisionSchema = (summary: string) => ({
    config: { access: 'changes.decide' as const },
    schema: {
      tags: ['pending-changes'],
      summary,
      params: pendingChangeParams,
      body: pendingChangeDecisionInput,
      response: {
        200: pendingChangeDecisionResponse,
        400: errorResponse,
        403: errorResponse,
        404: errorResponse,
        409: errorResponse,
      },
    },
  });

  app.post(
    '/pending-changes/:id/approve',
    decisionSchema('Approve and apply a pending change (another administrator than the one who asked)'),
    decide('approved'),
  );
  app.post(
    '/pending-changes/:id/refuse',
    decisionSchema('Refuse a pending change: the rule stays as it is'),
    decide('refused'),
  );
};

export default pendingChangesRoutes;
