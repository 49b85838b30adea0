// Every CSV export ("CSV cells neutralised"; decision 043): no cell a spreadsheet would run as a formula.
// The exports are found in the OpenAPI document built from the routes (a GET with a `format` that offers csv), so an
// export added later is checked without editing this file. The data arrives through the real OsmAnd route from a
// device whose id a spreadsheet would evaluate (`-2-3` is read as -5).
import { expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import { useTestApp } from './test-app';
import { describeEachEngine } from './test-db';

const FORMULA_START = /^[=+\-@\t\r]/;

type OpenApi = {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { enum?: string[] } }[] }>>;
};

/** The cells of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  for (const match of text.matchAll(/("(?:[^"]|"")*"|[^,\n]*)(,|\n|$)/g)) {
    if (match[0] === '') break;
    const raw = match[1]!;
    cells.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
  }
  return cells;
}

describeEachEngine('CSV exports (issue 20)', (engine) => {
  const ctx = useTestApp(engine);

  it('every CSV export writes text that starts like a formula with a leading quote; numbers stay numbers', async () => {
    const doc = ctx().app.swagger() as unknown as OpenApi;
    const exports = Object.entries(doc.paths).flatMap(([path, operations]) =>
      (operations.get?.parameters ?? []).some((p) => p.in === 'query' && p.name === 'format' && p.schema?.enum?.includes('csv'))
        ? [path]
        : [],
    );
    expect(exports).toContain(`${API_PREFIX}/location/export`);

    const prisoner = (
      await ctx().api('POST', '/prisoner/add', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        date_of_birth: '1980-01-01',
        status: 'Incarcerated',
      })
    ).json();
    const from = new Date(Date.now() - 3_600_000);
    // Each id a spreadsheet would evaluate or turn into a command, as far as device ids may hold them.
    for (const [index, id] of ['-2-3', '-cmd:calc', '--1'].entries()) {
      const device = await ctx().api('POST', '/devices', { id, name: `Tag ${index}`, kind: 'phone' });
      expect(device.statusCode, device.body).toBeLessThan(300);
      await ctx().api('PUT', `/devices/${encodeURIComponent(id)}/assign`, { prisoner_id: prisoner.prisoner_id });
      const query = new URLSearchParams({
        id,
        secret: device.json().secret,
        lat: '51.5',
        lon: '-0.12',
        altitude: '-3',
        timestamp: String(Math.floor(from.getTime() / 1000) + 60 * (index + 1)),
      });
      const fix = await ctx().app.inject({ method: 'GET', url: `${API_PREFIX}/ingest/osmand?${query}` });
      expect(fix.statusCode, fix.body).toBe(200);
    }

    for (const path of exports) {
      const query = new URLSearchParams({
        prisoner_id: String(prisoner.prisoner_id),
        from: from.toISOString(),
        to: new Date().toISOString(),
        format: 'csv',
      });
      const res = await ctx().api('GET', `${path.slice(API_PREFIX.length)}?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const cells = csvCells(res.body);
      expect(cells).toContain("'-2-3");
      expect(cells).toContain("'-cmd:calc");
      expect(cells).toContain('-0.12'); // a negative number is data, not a formula
      const formulas = cells.filter((cell) => FORMULA_START.test(cell) && !Number.isFinite(Number(cell)));
      expect(formulas, path).toEqual([]);
    }
  });
});
