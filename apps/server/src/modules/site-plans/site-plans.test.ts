import { deflateSync, crc32 } from 'node:zlib';
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { haversineMeters, pixelToLatLng, sitePlanFit, type SitePlan } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp, type TestContext } from '../../../test/test-app';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

function pngIhdr(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return pngChunk('IHDR', header);
}

/** A real PNG of the given size (grey pixels). */
function png(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([PNG_SIGNATURE, pngIhdr(width, height), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A PNG's signature and header only: it says width x height, and there are no pixels behind it to decode. */
const pngHeader = (width: number, height: number) => Buffer.concat([PNG_SIGNATURE, pngIhdr(width, height), pngChunk('IEND', Buffer.alloc(0))]);

/** A JPEG's start and baseline frame header only (three components), saying width x height. */
function jpegHeader(width: number, height: number): Buffer {
  const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), frame, Buffer.from([0xff, 0xd9])]);
}

const BOUNDARY = 'plan-boundary-7MA4YWxkTrZu0gW';
/** A multipart body as a browser's FormData sends it. */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file)
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

// The ground: 0.5 m per pixel, north up, pixel (0, 0) at the origin.
const origin = { lat: 51.5, lng: -0.12 };
const metresPerDegreeLng = 111_195.08 * Math.cos((origin.lat * Math.PI) / 180);
const ground = (x: number, y: number) => ({ lat: origin.lat - (0.5 * y) / 111_195.08, lng: origin.lng + (0.5 * x) / metresPerDegreeLng });
const point = (x: number, y: number) => ({ x, y, ...ground(x, y) });
const THREE_POINTS = JSON.stringify([point(20, 30), point(380, 40), point(200, 280)]);

async function upload(ctx: TestContext, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }, method = 'POST', url = '/site-plans') {
  const body = multipart(fields, file);
  return ctx.api(method, url, body.payload, body.headers);
}

async function planCount(ctx: TestContext) {
  const result = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from site_plans`);
  return (result as unknown as { rows: { n: number }[] }).rows?.[0]?.n ?? (result as unknown as { n: number }[])[0]!.n;
}

describeEachEngine('site plans', (engine) => {
  const ctx = useTestApp(engine);

  it('stores a plan placed by three points that puts a known pixel within 1 m of its ground point', async () => {
    const res = await upload(ctx(), { name: 'Main site', points: THREE_POINTS }, { name: 'plan.png', type: 'image/png', bytes: png(400, 300) });
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json<SitePlan>();
    expect(plan).toMatchObject({ name: 'Main site', content_type: 'image/png', width: 400, height: 300, is_default: true });
    const list = (await ctx().api('GET', '/site-plans')).json<SitePlan[]>();
    expect(list.map((p) => p.id)).toEqual([plan.id]);
    const fit = sitePlanFit(list[0]!)!;
    const placed = pixelToLatLng(fit, 300, 250);
    const truth = ground(300, 250);
    expect(haversineMeters(placed.lat, placed.lng, truth.lat, truth.lng)).toBeLessThan(1);
    // The image is served as it was sent, with an ETag a browser revalidates by.
    const image = await ctx().app.inject({ method: 'GET', url: plan.image_url, headers: { cookie: ctx().cookie } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(png(400, 300))).toBe(true);
    const again = await ctx().app.inject({ method: 'GET', url: plan.image_url, headers: { cookie: ctx().cookie, 'if-none-match': String(image.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const audit = await ctx().api('GET', '/audit?entity=site_plan');
    expect(audit.body).toContain('site_plan.create');
  });

  it('refuses a 30 MB image, a PDF renamed .png, collinear points and an SVG with a script: 400 naming it, nothing stored', async () => {
    const before = await planCount(ctx());
    const huge = Buffer.concat([png(400, 300), Buffer.alloc(30 * 1024 * 1024)]);
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const svgScript = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script></svg>');
    const svgExternal = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><image xlink:href="https://example.com/x.png"/></svg>');
    const cases: [Record<string, string>, { name: string; type: string; bytes: Buffer } | undefined, RegExp][] = [
      [{ name: 'Huge', points: THREE_POINTS }, { name: 'huge.png', type: 'image/png', bytes: huge }, /^file: is larger than 20 MB/],
      [{ name: 'Renamed', points: THREE_POINTS }, { name: 'plan.png', type: 'image/png', bytes: pdf }, /^file: is a PDF/],
      [{ name: 'Line', points: JSON.stringify([point(0, 0), point(100, 100), point(300, 300)]) }, { name: 'plan.png', type: 'image/png', bytes: png(400, 300) }, /^points: the three points lie on one line/],
      [{ name: 'Script', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: svgScript }, /^file: the SVG holds a script/],
      [{ name: 'External', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: svgExternal }, /^file: the SVG holds <image>/],
      [{ name: 'No file', points: THREE_POINTS }, undefined, /^file: is required/],
      [{ points: THREE_POINTS }, { name: 'plan.png', type: 'image/png', bytes: png(10, 10) }, /^name: /],
      [{ name: 'Bad JSON', points: '[{' }, { name: 'plan.png', type: 'image/png', bytes: png(10, 10) }, /^points: must be JSON/],
    ];
    for (const [fields, file, message] of cases) {
      const res = await upload(ctx(), fields, file);
      expect(res.statusCode, `${fields.name}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await planCount(ctx())).toBe(before);
    // JSON is not an upload.
    expect((await ctx().api('POST', '/site-plans', { name: 'x', points: THREE_POINTS })).statusCode).toBe(415);
  });

  // Each reported way past the old deny-list, and a few more spellings of the same: refused by the allow-list.
  const SVG_HEAD =
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:h="http://www.w3.org/1999/xhtml" width="400" height="300">';
  const bypasses: [string, string, RegExp][] = [
    ['set an event handler', '<rect width="10" height="10"><set attributeName="onmouseover" to="alert(1)"/></rect>', /^file: the SVG holds <set>/],
    ['set a link', '<a><set attributeName="href" to="https://evil.example/"/><text>Click</text></a>', /^file: the SVG holds <a>/],
    ['an escaped @import', '<style>@\\69mport "https://evil.example/x.css";</style>', /^file: the SVG's CSS holds an escape/],
    ['image-set()', '<rect width="10" height="10" style="fill: image-set(&quot;https://evil.example/x.png&quot; 1x)"/>', /^file: the SVG's CSS uses image-set\(\)/],
    ['<image src>', '<image src="https://evil.example/x.png" width="10" height="10"/>', /^file: the SVG holds <image>/],
    ['a namespaced <h:iframe>', '<h:iframe src="https://evil.example/"/>', /^file: the SVG holds <h:iframe> \(from http:\/\/www.w3.org\/1999\/xhtml\)/],
    ['an <iframe> by default namespace', '<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>', /^file: the SVG holds <iframe>/],
    ['url() spelled by a character reference', '<rect fill="&#117;rl(https://evil.example/p.svg#a)"/>', /^file: the SVG refers to something outside the file \(url\)/],
    ['url() split by an XML comment', '<style>rect { fill: ur<!-- x -->l(https://evil.example/p.svg#a) }</style>', /^file: the SVG refers to something outside the file \(url\)/],
    ['an at-rule in CDATA', '<style><![CDATA[@font-face { font-family: x; src: local(x) }]]></style>', /^file: the SVG's CSS holds an at-rule/],
    ['a <use> of another file', '<use href="https://evil.example/p.svg#a"/>', /^file: the SVG refers to something outside the file \(href\)/],
    ['an attribute in an undeclared namespace', '<rect ev:onload="alert(1)"/>', /^file: the SVG's attribute ev:onload on <rect> uses an undeclared prefix/],
  ];
  it.each(bypasses)('refuses an SVG with %s: 400 naming it, nothing stored', async (_what, inner, message) => {
    const before = await planCount(ctx());
    const bytes = Buffer.from(`${SVG_HEAD}${inner}</svg>`);
    const res = await upload(ctx(), { name: 'Bypass', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await planCount(ctx())).toBe(before);
  });

  it('refuses a style sheet loaded by a processing instruction, and an SVG outside the SVG namespace', async () => {
    const sheet = Buffer.from(`<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/x.css"?>${SVG_HEAD}</svg>`);
    const res = await upload(ctx(), { name: 'Sheet', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: sheet });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('file: the SVG holds a processing instruction (<?xml-stylesheet>), which a site plan may not hold');
    const bare = Buffer.from('<svg width="10" height="10"><rect width="5" height="5"/></svg>');
    const plain = await upload(ctx(), { name: 'Bare', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: bare });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toMatch(/^file: the SVG's root must be in the SVG namespace/);
  });

  it('accepts a plan drawn with paths, text, groups, gradients, a style sheet and local references', async () => {
    const drawing = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<!-- Exported by a drawing program -->
<svg id="Layer_1" data-name="Layer (1)" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 400 300" xml:space="preserve">
  <defs>
    <style>.wall { fill: #cbd5e1; stroke: rgb(71, 85, 105) } .yard { fill: url(#grass) } text { font-family: "Helvetica Neue", sans-serif }</style>
    <linearGradient id="grass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#bbf7d0"/><stop offset="1" stop-color="#86efac" stop-opacity=".8"/></linearGradient>
    <radialGradient id="glow" cx="50%" cy="50%" r="50%" xlink:href="#grass"/>
    <clipPath id="site"><rect width="400" height="300"/></clipPath>
  </defs>
  <title>HMP Example: Block A &amp; the yard</title>
  <g id="walls" clip-path="url(#site)" transform="translate(10 10) rotate(2)">
    <path class="wall" d="M0 0 L180 0 L180 120 L0 120 Z"/>
    <g><circle class="yard" cx="260" cy="80" r="50" style="stroke: #475569; stroke-width: 2px"/></g>
    <polygon points="300,200 380,200 340,260" fill="url('#glow')"/>
    <text x="20" y="60" font-size="12" text-anchor="start">Block A <tspan font-weight="bold">(east)</tspan></text>
  </g>
  <use href="#walls" x="0" y="150" opacity="0.4"/>
</svg>`);
    const res = await upload(ctx(), { name: 'Drawn', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: drawing });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ content_type: 'image/svg+xml', width: 400, height: 300 });
    expect((await ctx().api('DELETE', `/site-plans/${res.json<SitePlan>().id}`)).statusCode).toBe(204);
  });

  it('answers 20,000 nested groups with a 400 naming the depth, not a 500', async () => {
    const deep = Buffer.from(`${SVG_HEAD}${'<g>'.repeat(20_000)}${'</g>'.repeat(20_000)}</svg>`);
    const res = await upload(ctx(), { name: 'Deep', points: THREE_POINTS }, { name: 'plan.svg', type: 'image/svg+xml', bytes: deep });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('file: the SVG nests elements more than 100 deep');
  });

  it('refuses a PNG and a JPEG whose headers say 30,000 x 30,000 (over 100 megapixels), read from the header alone', async () => {
    const before = await planCount(ctx());
    // The header and nothing to decode: the answer cannot have come from decoding pixels.
    for (const [name, type, bytes] of [
      ['plan.png', 'image/png', pngHeader(30_000, 30_000)],
      ['plan.jpg', 'image/jpeg', jpegHeader(30_000, 30_000)],
    ] as const) {
      const res = await upload(ctx(), { name: 'Huge', points: THREE_POINTS }, { name, type, bytes });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('file: the image is 30000 x 30000 pixels (900 megapixels): a site plan has at most 100 megapixels');
    }
    expect(await planCount(ctx())).toBe(before);
  });

  it('serves a clean SVG as an image that runs nothing, replaces, makes default and deletes', async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><rect x="10" y="10" width="100" height="50" fill="#ccc"/></svg>');
    const created = await upload(ctx(), { name: 'Drawing', points: THREE_POINTS }, { name: 'site.svg', type: 'image/svg+xml', bytes: svg });
    expect(created.statusCode, created.body).toBe(201);
    const plan = created.json<SitePlan>();
    expect(plan).toMatchObject({ content_type: 'image/svg+xml', width: 400, height: 300, is_default: false });
    const image = await ctx().app.inject({ method: 'GET', url: plan.image_url, headers: { cookie: ctx().cookie } });
    expect(image.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(image.headers['content-security-policy']).toContain('sandbox');

    const renamed = await upload(ctx(), { name: 'Drawing v2', points: THREE_POINTS }, undefined, 'PUT', `/site-plans/${plan.id}`);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Drawing v2', content_type: 'image/svg+xml' });
    const replaced = await upload(ctx(), { name: 'Drawing v3', points: THREE_POINTS }, { name: 'p.png', type: 'image/png', bytes: png(800, 600) }, 'PUT', `/site-plans/${plan.id}`);
    expect(replaced.json()).toMatchObject({ content_type: 'image/png', width: 800 });
    expect(replaced.json().image_url).not.toBe(plan.image_url);

    const made = await ctx().api('PUT', `/site-plans/${plan.id}/default`);
    expect(made.statusCode).toBe(200);
    const list = (await ctx().api('GET', '/site-plans')).json<SitePlan[]>();
    expect(list.filter((p) => p.is_default).map((p) => p.id)).toEqual([plan.id]);

    expect((await ctx().api('DELETE', `/site-plans/${plan.id}`)).statusCode).toBe(204);
    expect((await ctx().api('DELETE', `/site-plans/${plan.id}`)).statusCode).toBe(404);
    expect((await ctx().api('GET', `/site-plans/${plan.id}/image`)).statusCode).toBe(404);
  });
});
