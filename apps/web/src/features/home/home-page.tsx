import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { RecentIncidents } from './recent-incidents';
import { RecentAlerts } from './recent-alerts';

export function HomePage() {
  const navigate = useNavigate();
  return (
    <div className="flex flex-col">
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-16 text-center text-white">
        <h1 className="text-3xl font-bold sm:text-4xl">Prisoner Management and Live Tracking System</h1>
        <p className="mx-auto mt-3 max-w-2xl text-slate-200">
          Records, cells, a live map of every tracked prisoner, geofences and alerts, in one control room.
        </p>
        <Button variant="secondary" className="mt-8 px-6 py-3 text-base" onClick={() => navigate('/dashboard')}>
          Get Started
        </Button>
      </section>
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
