// What an audit entry changed: only the fields whose value differs, each with its value before and after (the server
// compares them; a creation lists every field it set, a deletion every field it had).
import type { AuditChange } from '@prison/shared/audit-entry';

const show = (value: unknown) => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

export function AuditDiff({ changes }: { changes: AuditChange[] }) {
  if (changes.length === 0) return <p className="text-sm text-slate-600">No field changed in this entry.</p>;
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
        {changes.map((change) => (
          <tr key={change.field} data-changed className="bg-amber-50">
            <td className="py-1 pr-3 font-mono">{change.field.replace(/_/g, ' ')}</td>
            <td className="py-1 pr-3 break-all text-red-800 line-through decoration-red-300">{show(change.before)}</td>
            <td className="py-1 font-medium break-all text-green-800">{show(change.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
