// What an uploaded site plan really is, read from its bytes (decision 065): a PNG or a JPEG by its signature and size
// header, never decoded, and at most SITE_PLAN_MAX_MEGAPIXELS (a browser decodes every pixel, 4 bytes each); an SVG
// by a real XML parse that keeps to an allow-list (svg-allow-list.ts, decision 095). The name and the type the browser
// sent are not trusted: a PDF renamed .png is a PDF.
import { SITE_PLAN_MAX_MEGAPIXELS, type SitePlanType } from '@prison/shared';
import { readAllowedSvg } from './svg-allow-list';

export type CheckedImage = { ok: true; contentType: SitePlanType; width: number; height: number } | { ok: false; problem: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A side longer than this is not a drawing a browser can show (and a forged header). */
const MAX_SIDE = 30_000;

function sized(contentType: SitePlanType, width: number, height: number): CheckedImage {
  if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE))
    return { ok: false, problem: `the image's size (${width} x ${height}) must be 1 to ${MAX_SIDE} pixels a side` };
  const megapixels = (width * height) / 1e6;
  if (megapixels > SITE_PLAN_MAX_MEGAPIXELS)
    return {
      ok: false,
      problem:
        `the image is ${width} x ${height} pixels (${Math.ceil(megapixels)} megapixels): a site plan has at most ` +
        `${SITE_PLAN_MAX_MEGAPIXELS} megapixels`,
    };
  return { ok: true, contentType, width, height };
}

function png(bytes: Buffer): CheckedImage {
  // IHDR is always the first chunk: width and height big-endian right after its type.
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return { ok: false, problem: 'the PNG is damaged' };
  return sized('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function jpeg(bytes: Buffer): CheckedImage {
  // Walk the segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG and DAC), which holds the size.
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return { ok: false, problem: 'the JPEG is damaged' };
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return sized('image/jpeg', bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    at += 2 + length;
  }
  return { ok: false, problem: 'the JPEG has no size header' };
}

function length(value: unknown): number | null {
  const match = typeof value === 'string' ? /^\s*([0-9.]+)\s*(px)?\s*$/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

function svg(bytes: Buffer): CheckedImage {
  const reading = readAllowedSvg(bytes.toString('utf8'));
  if (!reading.ok) return reading;
  const attributes = reading.root;
  const box = typeof attributes.viewBox === 'string' ? attributes.viewBox.trim().split(/[\s,]+/).map(Number) : [];
  const width = length(attributes.width) ?? box[2];
  const height = length(attributes.height) ?? box[3];
  if (width === undefined || height === undefined || !Number.isFinite(width) || !Number.isFinite(height))
    return { ok: false, problem: 'the SVG needs a width and height or a viewBox' };
  return sized('image/svg+xml', width, height);
}

/** Checks an upload's bytes; a problem is worded for "file: <problem>". */
export function checkPlanImage(bytes: Buffer): CheckedImage {
  if (bytes.length === 0) return { ok: false, problem: 'is empty' };
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(bytes.toString('utf8', 0, 4096)) || /^\s*<\?xml/.test(bytes.toString('utf8', 0, 64)))
    return svg(bytes);
  if (bytes.toString('latin1', 0, 5) === '%PDF-') return { ok: false, problem: 'is a PDF, not a PNG, JPEG or SVG image' };
  return { ok: false, problem: 'is not a PNG, JPEG or SVG image' };
}
