// The switch for Informational toasts, on the alerts screen beside the Critical sound (decision 040).
import { informationalToasts } from '../../lib/informational-toasts';

export function InformationalToastsToggle() {
  const [on, set] = informationalToasts.use();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        onChange={(event) => set(event.target.checked)}
        className="h-4 w-4"
      />
      Show Informational alerts as toasts
    </label>
  );
}
