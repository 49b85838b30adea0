// Wires the movements' fix rule into the app (composition.ts passes it to the tracking core, decision 064): loaded when
// the app is ready, re-read in every process after any change (the change feed), screens told to refetch.
import type { FastifyInstance } from 'fastify';
import { MovementRule } from './movement-rule';

declare module 'fastify' {
  interface FastifyInstance {
    /** The controlled movements watched on live fixes. */
    movementRule: MovementRule;
  }
}

export function createMovementRule(app: FastifyInstance): MovementRule {
  const changes = app.cluster.changes;
  const rule = new MovementRule(app.db, () => void changes.publish('movements'));
  changes.on('movements', async () => {
    await rule.reload();
    app.realtime.toBrowsers().emit('dataChanged', 'movements');
  });
  changes.onResync(() => rule.reload());
  app.addHook('onReady', () => rule.reload());
  app.decorate('movementRule', rule);
  return rule;
}
