// / (docs/CLIENT-CONTRACT.md): the landing hero with Get Started for a visitor (docs/CLIENT-CONTRACT.md, word for word); a logged-in
// account works here, so it gets the operations overview first and no visitor's heading or button (decision 105).
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { useAuth } from '../../lib/auth';
import { RecentIncidents } from './recent-incidents';
import { RecentAlerts } from './recent-alerts';
import { OperationsOverview } from './operations-overview';
import { LatestCounts } from '../counts';

const TITLE = 'Prisoner Management and Live Tracking System';

export function HomePage() {
  const navigate = useNavigate();
  const { status } = useAuth();
  const admin = status === 'authenticated';
  return (
    <div className="flex flex-col">
      {!admin && (
        <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-16 text-center text-white">
          <h1 className="text-3xl font-bold sm:text-4xl">{TITLE}</h1>
          <p className="mx-auto mt-3 max-w-2xl text-slate-200">
            Records, cells, a live map of every tracked prisoner, geofences and alerts, in one control room.
          </p>
          <Button variant="secondary" className="mt-8 px-6 py-3 text-base" onClick={() => navigate('/dashboard')}>
            Get Started
          </Button>
        </section>
      )}
      {admin && (
        <section className="mx-auto w-full max-w-screen-2xl px-4 pt-6" aria-labelledby="overview-title">
          <h1 id="overview-title" className="mb-3 text-2xl font-bold text-slate-900">
            Operations overview
          </h1>
          <OperationsOverview />
          <h2 id="latest-counts-title" className="mt-6 mb-3 text-lg font-semibold">
            Roll counts
          </h2>
          <LatestCounts />
        </section>
      )}
      <div className="mx-auto grid w-full max-w-screen-2xl gap-6 px-4 py-8 lg:grid-cols-3">
        <section className="lg:col-span-2" aria-labelledby="incidents-title">
          <h2 id="incidents-title" className="mb-3 text-xl font-semibold">
            Recent Incidents
          </h2>
          <RecentIncidents />
        </section>
        <section aria-labelledby="recent-alerts-title">
          <h2 id="recent-alerts-title" className="mb-3 text-xl font-semibold">
            Recent Alerts
          </h2>
          <RecentAlerts />
        </section>
      </div>
    </div>
  );
}
