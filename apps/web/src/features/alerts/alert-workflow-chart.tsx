// Alerts per day by type over the last 30 days (stacked bars, the alert colours).
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAlertDailyStats } from './alert-workflow-api';

const COLORS = { Critical: '#dc2626', Warning: '#eab308', Informational: '#3b82f6' } as const;
const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function AlertWorkflowChart({ days = 30 }: { days?: number }) {
  const stats = useAlertDailyStats(days);
  return (
    <section
      aria-label={`Alerts per day, last ${days} days`}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="alerts-chart"
    >
      <h2 className="mb-2 text-sm font-semibold text-slate-700">Alerts per day (last {days} days, UTC)</h2>
      {stats.isPending ? (
        <Loading text="Loading chart..." />
      ) : stats.isError ? (
        <ErrorText>{errorMessage(stats.error, 'Failed to fetch the alert statistics.')}</ErrorText>
      ) : (
        <div className="h-56 w-full">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={stats.data.days} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="date" tickFormatter={dayLabel} fontSize={11} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip labelFormatter={(label) => dayLabel(String(label))} />
              <Legend />
              {(Object.keys(COLORS) as (keyof typeof COLORS)[]).map((type) => (
                <Bar key={type} dataKey={type} stackId="alerts" fill={COLORS[type]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
}
