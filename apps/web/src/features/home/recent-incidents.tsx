// Filled by the records feature: incidents from GET /incident/recent.
export function RecentIncidents() {
  return <p className="text-slate-500">No incidents yet.</p>;
}
