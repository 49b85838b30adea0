// Alerts per day by type over the last 30 days: stacked bars in the alert colours, drawn as plain SVG (one small chart
// does not need a chart library). Screen readers get the title, a summary and the numbers as a table.
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAlertDailyStats } from './alert-workflow-api';
import { chartTicks, type DailyCounts } from './chart-ticks';

const COLORS = { Critical: '#dc2626', Warning: '#eab308', Informational: '#3b82f6' } as const;
const TYPES = Object.keys(COLORS) as (keyof typeof COLORS)[];
const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

// The drawing's own units; the SVG scales to the card's width.
const WIDTH = 640;
const HEIGHT = 200;
const PLOT = { left: 32, right: 8, top: 8, bottom: 24 };

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
        <StackedBars data={stats.data.days} days={days} />
      )}
    </section>
  );
}

function StackedBars({ data, days }: { data: DailyCounts[]; days: number }) {
  const { max, ticks, labelled } = chartTicks(data);
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / Math.max(data.length, 1);
  const barWidth = Math.max(slot * 0.7, 1);
  const y = (count: number) => PLOT.top + plotHeight - (count / max) * plotHeight;
  const total = data.reduce((sum, day) => sum + TYPES.reduce((s, type) => s + day[type], 0), 0);
  return (
    <>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="alerts-chart-title alerts-chart-desc"
      >
        <title id="alerts-chart-title">{`Alerts per day, last ${days} days`}</title>
        <desc id="alerts-chart-desc">{`${total} alerts in all; the table after the chart lists each day's numbers.`}</desc>
        {ticks.map((tick) => (
          <g key={tick} className="text-slate-500">
            <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" strokeDasharray="3 3" />
            <text x={PLOT.left - 4} y={y(tick)} textAnchor="end" dominantBaseline="middle" fontSize={11} fill="currentColor">
              {tick}
            </text>
          </g>
        ))}
        {data.map((day, index) => {
          let base = 0;
          const x = PLOT.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.date}>
              <title>{`${dayLabel(day.date)}: ${TYPES.map((type) => `${type} ${day[type]}`).join(', ')}`}</title>
              {TYPES.map((type) => {
                const count = day[type];
                if (count === 0) return null;
                const top = y(base + count);
                const height = y(base) - top;
                base += count;
                return <rect key={type} x={x} y={top} width={barWidth} height={height} fill={COLORS[type]} />;
              })}
              {labelled.has(index) && (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="#64748b">
                  {dayLabel(day.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="mt-2 flex justify-center gap-4 text-xs text-slate-700" aria-hidden="true">
        {TYPES.map((type) => (
          <li key={type} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5" style={{ backgroundColor: COLORS[type] }} />
            {type}
          </li>
        ))}
      </ul>
      <table className="sr-only">
        <caption>Alerts per day by type</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {TYPES.map((type) => (
              <th key={type} scope="col">
                {type}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date)}</th>
              {TYPES.map((type) => (
                <td key={type}>{day[type]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
