// Banners under the top bar: what keeps this screen from being current. The database outage banner (lib/service-status)
// and the live feed's (components/ui/feed-health, lib/feed-health) share one look.
import type { ReactNode } from 'react';
import { DatabaseZap } from 'lucide-react';
import { useDatabaseUnavailable } from '../../lib/service-status';

/** One full-width line: red for what stops work, amber for what may recover by itself. */
export function OutageBanner({
  tone,
  icon,
  testId,
  role,
  children,
}: {
  tone: 'red' | 'amber';
  icon: ReactNode;
  testId: string;
  /** Omitted when the banner sits inside a live region of its own. */
  role?: 'alert';
  children: ReactNode;
}) {
  return (
    <div
      role={role}
      data-testid={testId}
      className={tone === 'red' ? 'bg-red-700 text-white' : 'bg-amber-300 text-slate-950'}
    >
      <p className="mx-auto flex max-w-screen-2xl items-center gap-2 px-4 py-2 text-sm font-medium">
        <span aria-hidden="true" className="shrink-0 [&>svg]:h-4 [&>svg]:w-4">
          {icon}
        </span>
        <span>{children}</span>
      </p>
    </div>
  );
}

export function DatabaseOutageBanner() {
  const unavailable = useDatabaseUnavailable();
  if (!unavailable) return null;
  return (
    <OutageBanner role="alert" tone="red" icon={<DatabaseZap />} testId="database-outage-banner">
      The database cannot be reached: data cannot be stored or read right now. Retrying…
    </OutageBanner>
  );
}
