// Every feature's routes, registered under /api/v1. A feature reads top-down: routes -> service -> repository.
import type { FastifyPluginAsync } from 'fastify';
import adminRoutes from './admin/routes';
import settingsRoutes from './settings/routes';

export const apiModules: { name: string; routes: FastifyPluginAsync }[] = [
  { name: 'admin', routes: adminRoutes },
  { name: 'settings', routes: settingsRoutes },
];
