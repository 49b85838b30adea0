import type { FastifyInstance } from 'fastify';

/** Position ingestion, alert raising, fan-out to browsers and the offline watcher (tracking feature fills this). */
export async function registerTrackingServices(_app: FastifyInstance): Promise<void> {}
