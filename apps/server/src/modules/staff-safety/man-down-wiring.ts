// Wires the man-down fix rule (decision 064) with MAN_DOWN_SECONDS and the registry's newest fixes.
import type { FastifyInstance } from 'fastify';
import { ManDownRule } from './man-down-rule';

export function createManDownRule(app: FastifyInstance): ManDownRule {
  // The tracking service is decorated after the rules are created: read it when a tick asks.
  return new ManDownRule(app.config.MAN_DOWN_SECONDS, (deviceId) => app.tracking.registry.get(deviceId)?.lastFixAt ?? null);
}
