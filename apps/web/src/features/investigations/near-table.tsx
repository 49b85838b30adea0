// The people who were near, as a table: the screen's and the printed report's (the same rows, the same order); a
// prisoner's prison number stands beside his name, since names are not unique.
import type { NearEntry } from '@prison/shared/investigations';
import { PrisonNumber } from '../../components/prisoner-identity';
import { formatInstant } from './local-time';

export const personOf = (entry: NearEntry) => (entry.prisoner_id !== null ? `Prisoner #${entry.prisoner_id}` : `Staff #${entry.staff_id}`);

export function NearTable({ rows, caption, testId }: { rows: readonly NearEntry[]; caption: string; testId: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-1">Name</th>
            <th scope="col" className="px-2 py-1">Who</th>
            <th scope="col" className="px-2 py-1">First near</th>
            <th scope="col" className="px-2 py-1">Last near</th>
            <th scope="col" className="px-2 py-1 text-right">Closest (m)</th>
            <th scope="col" className="px-2 py-1 text-right">Fixes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={personOf(r)} className="border-b border-slate-100">
              <td className="px-2 py-1 font-medium text-slate-900">
                {r.name}
                {r.prison_number && (
                  <>
                    {' '}
                    <PrisonNumber value={r.prison_number} />
                  </>
                )}
              </td>
              <td className="px-2 py-1 text-slate-700">{personOf(r)}</td>
              <td className="px-2 py-1 text-slate-700">{formatInstant(r.first_at)}</td>
              <td className="px-2 py-1 text-slate-700">{formatInstant(r.last_at)}</td>
              <td className="px-2 py-1 text-right text-slate-900">{r.min_distance_m.toFixed(1)}</td>
              <td className="px-2 py-1 text-right text-slate-700">{r.fixes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
