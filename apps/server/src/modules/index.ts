// Every feature's routes, registered under /api/v1. A feature reads top-down: routes -> service -> repository.
import type { FastifyPluginAsync } from 'fastify';
import adminRoutes from './admin/routes';
import oidcRoutes from './admin/oidc-routes';
import settingsRoutes from './settings/routes';
import prisonersRoutes from './prisoners/routes';
import prisonerPhotoRoutes from './prisoners/photo-routes';
import prisonerFlagRoutes from './prisoner-flags/routes';
import staffRoutes from './staff/routes';
import cellsRoutes from './cells/routes';
import incidentsRoutes from './incidents/routes';
import devicesRoutes from './devices/routes';
import geofencesRoutes from './geofences/routes';
import alertsRoutes from './alerts/routes';
import ingestRoutes from './ingest/routes';
import locationRoutes from './location/routes';
import investigationsRoutes from './investigations/routes';
import auditRoutes from './audit/routes';
import profileRoutes from './profile/routes';
import messagesRoutes from './messages/routes';
import alertWorkflowRoutes from './alerts/workflow-routes';
import overviewRoutes from './overview/routes';
import keepApartRoutes from './keep-apart/routes';
import escortRoutes from './escorts/routes';
import pendingChangesRoutes from './pending-changes/routes';
import escalationRoutes from './escalation/routes';
import blockAreaRoutes from './block-areas/routes';
import countRoutes from './counts/routes';
import readersRoutes from './readers/routes';
import observationRoutes from './observations/routes';
import movementRoutes from './movements/routes';
import sitePlanRoutes from './site-plans/routes';
import tileRoutes from './tiles/routes';
import duressRoutes from './staff-safety/duress-routes';

export const apiModules: { name: string; routes: FastifyPluginAsync }[] = [
  { name: 'admin', routes: adminRoutes },
  { name: 'single-sign-on', routes: oidcRoutes },
  { name: 'settings', routes: settingsRoutes },
  { name: 'prisoners', routes: prisonersRoutes },
  { name: 'prisoner-photos', routes: prisonerPhotoRoutes },
  { name: 'prisoner-flags', routes: prisonerFlagRoutes },
  { name: 'staff', routes: staffRoutes },
  { name: 'cells', routes: cellsRoutes },
  { name: 'incidents', routes: incidentsRoutes },
  { name: 'devices', routes: devicesRoutes },
  { name: 'geofences', routes: geofencesRoutes },
  { name: 'alerts', routes: alertsRoutes },
  { name: 'ingest', routes: ingestRoutes },
  { name: 'location', routes: locationRoutes },
  { name: 'investigations', routes: investigationsRoutes },
  { name: 'audit', routes: auditRoutes },
  { name: 'profile', routes: profileRoutes },
  { name: 'messages', routes: messagesRoutes },
  { name: 'alert-workflow', routes: alertWorkflowRoutes },
  { name: 'overview', routes: overviewRoutes },
  { name: 'keep-apart', routes: keepApartRoutes },
  { name: 'escorts', routes: escortRoutes },
  { name: 'pending-changes', routes: pendingChangesRoutes },
  { name: 'escalation', routes: escalationRoutes },
  { name: 'block-areas', routes: blockAreaRoutes },
  { name: 'counts', routes: countRoutes },
  { name: 'readers', routes: readersRoutes },
  { name: 'observations', routes: observationRoutes },
  { name: 'movements', routes: movementRoutes },
  { name: 'site-plans', routes: sitePlanRoutes },
  { name: 'tiles', routes: tileRoutes },
  { name: 'staff-safety', routes: duressRoutes },
];
