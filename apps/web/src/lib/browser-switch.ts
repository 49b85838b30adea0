// An on/off setting kept in this browser (localStorage), read at once where it is needed and kept in step across
// tabs: the Critical sound and Informational toasts (decision 040) are two of them.
import { useEffect, useState } from 'react';

export interface BrowserSwitch {
  /** The current value; the default when storage is refused (private mode) or nothing was chosen. */
  isOn(): boolean;
  set(on: boolean): void;
  /** `[on, set]`, re-rendered when this tab or another changes it. */
  use(): [boolean, (on: boolean) => void];
}

export function browserSwitch(storageKey: string, defaultOn: boolean): BrowserSwitch {
  const changeEvent = `${storageKey}-change`;
  const isOn = () => {
    try {
      const stored = window.localStorage.getItem(storageKey);
      return stored === null ? defaultOn : stored === 'on';
    } catch {
      return defaultOn;
    }
  };
  const set = (on: boolean) => {
    try {
      window.localStorage.setItem(storageKey, on ? 'on' : 'off');
    } catch {
      // Storage refused (private mode): the switch simply does not persist.
    }
    window.dispatchEvent(new Event(changeEvent));
  };
  const use = (): [boolean, (on: boolean) => void] => {
    const [on, setOn] = useState(isOn);
    useEffect(() => {
      const sync = () => setOn(isOn());
      window.addEventListener(changeEvent, sync);
      window.addEventListener('storage', sync);
      return () => {
        window.removeEventListener(changeEvent, sync);
        window.removeEventListener('storage', sync);
      };
    }, []);
    return [on, set];
  };
  return { isOn, set, use };
}
