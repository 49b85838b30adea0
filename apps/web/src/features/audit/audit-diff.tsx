// Before and after of an audit entry, field by field: changed fields are marked, unchanged ones kept for context.
import { clsx } from 'clsx';

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  if (before == null && after == null)
    return <p className="text-sm text-slate-500">No before or after recorded for this entry.</p>;
  if (!isRecord(before ?? {}) || !isRecord(after ?? {})) {
    return (
      <div className="grid gap-2 text-xs md:grid-cols-2">
        <pre className="overflow-x-auto rounded bg-red-50 p-2">{JSON.stringify(before, null, 2)}</pre>
        <pre className="overflow-x-auto rounded bg-green-50 p-2">{JSON.stringify(after, null, 2)}</pre>
      </div>
    );
  }
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return (
    <table className="w-full text-left text-xs" aria-label="Changes">
      <thead className="text-slate-600">
        <tr>
          <th className="py-1 pr-3 font-medium">Field</th>
          <th className="py-1 pr-3 font-medium">Before</th>
          <th className="py-1 font-medium">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => {
          const changed = JSON.stringify(b[field]) !== JSON.stringify(a[field]);
          return (
            <tr
              key={field}
              data-changed={changed || undefined}
              className={clsx(changed ? 'bg-amber-50' : 'text-slate-500')}
            >
              <td className="py-1 pr-3 font-mono">{field}</td>
              <td className={clsx('py-1 pr-3 break-all', changed && 'text-red-800 line-through decoration-red-300')}>
                {show(b[field])}
              </td>
              <td className={clsx('py-1 break-all', changed && 'font-medium text-green-800')}>{show(a[field])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
