// Every way a position reaches the server (readers, gateways, the RTLS, the phones' protocols): address,
// authentication and an example, as the docs list them, so whoever configures a device finds its settings here.
import { WAYS_IN } from '@prison/shared/ways-in';

export function WaysIn() {
  return (
    <details className="mt-6 rounded-lg border border-slate-200 bg-white p-4" data-testid="ways-in">
      <summary className="cursor-pointer text-lg font-semibold text-slate-900">Ways in: protocols and formats</summary>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2">Protocol or format</th>
              <th scope="col" className="px-3 py-2">Address</th>
              <th scope="col" className="px-3 py-2">Authentication</th>
              <th scope="col" className="px-3 py-2">Example</th>
            </tr>
          </thead>
          <tbody>
            {WAYS_IN.map((way) => (
              <tr key={way.metrics} className="border-t border-slate-100 align-top">
                <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                  {way.name}
                  <span className="block font-normal text-slate-600">metrics: {way.metrics}</span>
                </th>
                <td className="px-3 py-2 font-mono text-xs">{way.address}</td>
                <td className="px-3 py-2">{way.authentication}</td>
                <td className="px-3 py-2 break-all font-mono text-xs">{way.example}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
