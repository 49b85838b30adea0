// What other features may use of the alerts feature: an alert's card, Acknowledge (a Critical through its note
// dialog) and the Critical sound's switch. Everything else in this folder is its own.
export { AlertCard } from './components/alert-card';
export { useAcknowledge } from './acknowledge-with-note';
export { AlertWorkflowSoundToggle } from './alert-workflow-sound';
