// What other features may use of incidents: the "Open an incident" dialog and its button on an alert.
export { OpenIncidentDialog, type IncidentDraft } from './open-incident-dialog';
export { OpenIncidentFromAlert } from './open-incident-from-alert';
