// Shown on every screen while the server cannot reach its database (lib/service-status), gone when it returns.
import { DatabaseZap } from 'lucide-react';
import { useDatabaseUnavailable } from '../../lib/service-status';

export function DatabaseOutageBanner() {
  const unavailable = useDatabaseUnavailable();
  if (!unavailable) return null;
  return (
    <div role="alert" data-testid="database-outage-banner" className="bg-red-700 text-white">
      <p className="mx-auto flex max-w-screen-2xl items-center gap-2 px-4 py-2 text-sm font-medium">
        <DatabaseZap aria-hidden="true" className="h-4 w-4 shrink-0" />
        The database cannot be reached: data cannot be stored or read right now. Retrying…
      </p>
    </div>
  );
}
