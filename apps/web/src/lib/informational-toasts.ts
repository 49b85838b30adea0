// Whether Informational alerts are shown as toasts in this browser: off unless switched on (decision 040).
// Routine alerts arrive every few seconds in a busy prison; toasting them drowned the Warnings and Criticals.
import { browserSwitch } from './browser-switch';

export const informationalToasts = browserSwitch('prison.informationalToasts', false);
