// Whether Informational alerts are shown as toasts in this browser: off unless switched on (issue 20, decision 040).
// Routine alerts arrive every few seconds in a busy prison; toasting them drowned the Warnings and Criticals.
import { useEffect, useState } from 'react';

const STORAGE_KEY = 'prison.informationalToasts';
const CHANGE_EVENT = 'informational-toasts-change';

export function informationalToastsOn(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

function setInformationalToasts(on: boolean) {
  try {
    window.localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the switch simply does not persist.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** `[on, set]`, kept in step with other tabs of this browser. */
export function useInformationalToastsSetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(informationalToastsOn);
  useEffect(() => {
    const sync = () => setOn(informationalToastsOn());
    window.addEventListener(CHANGE_EVENT, sync);
    window.addEventListener('storage', sync);
    return () => {
      window.removeEventListener(CHANGE_EVENT, sync);
      window.removeEventListener('storage', sync);
    };
  }, []);
  return [on, setInformationalToasts];
}
