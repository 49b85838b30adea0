// What an uploaded SVG site plan may hold (decision 095): elements and attributes by name from short lists, in the
// SVG namespace, with every reference inside the file and CSS without escapes, at-rules or functions that load
// anything. Whatever is not on a list is refused, naming it; nothing is rewritten. A deny-list of dangerous things
// missed what it did not name (animation setting an event handler or a link, CSS escapes, image-set(), HTML by
// namespace), so there is none here.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** Deeper than this is no drawing: the parser stops there, and the answer is a 400, not a stack overflow. */
export const SVG_MAX_DEPTH = 100;

/** Shapes, text, groups and reuse, paint servers, clipping and masking, and filters that draw from the file alone. */
const ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feFuncR', 'feFuncG', 'feFuncB', 'feFuncA',
  'feComposite', 'feDropShadow', 'feFlood', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset',
]);

/** Attributes without a namespace. No event handler, no animation target, no `src`, no `xml:base`. */
const ATTRIBUTES = new Set([
  // identity and structure
  'id', 'class', 'style', 'version', 'baseProfile', 'lang', 'role', 'type', 'href',
  'viewBox', 'preserveAspectRatio', 'width', 'height', 'x', 'y', 'transform', 'overflow',
  // geometry
  'd', 'points', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'pathLength',
  // paint
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap',
  'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity', 'color', 'display',
  'visibility', 'paint-order', 'vector-effect', 'shape-rendering', 'text-rendering', 'image-rendering',
  'color-interpolation', 'color-interpolation-filters', 'mix-blend-mode', 'isolation', 'enable-background',
  'clip-path', 'clip-rule', 'clipPathUnits', 'mask', 'maskUnits', 'maskContentUnits', 'filter',
  'marker-start', 'marker-mid', 'marker-end', 'markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient',
  // text
  'font-family', 'font-size', 'font-weight', 'font-style', 'font-variant', 'font-stretch', 'text-anchor',
  'dominant-baseline', 'alignment-baseline', 'baseline-shift', 'letter-spacing', 'word-spacing', 'text-decoration',
  'writing-mode', 'direction', 'unicode-bidi', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'startOffset',
  'method', 'spacing', 'side',
  // gradients and patterns
  'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'fx', 'fy', 'fr',
  'patternUnits', 'patternContentUnits', 'patternTransform',
  // filters
  'filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'mode', 'values', 'operator', 'k1', 'k2', 'k3', 'k4',
  'stdDeviation', 'edgeMode', 'radius', 'flood-color', 'flood-opacity', 'tableValues', 'slope', 'intercept',
  'amplitude', 'exponent',
]);

/** Attributes that are names or labels, never read as CSS or as an address: any text is harmless there. */
const PLAIN_ATTRIBUTES = new Set(['id', 'class', 'lang', 'role', 'type', 'version', 'baseProfile']);

/** CSS functions that compute a value from the file alone (url() is checked on its own: a fragment only). */
const CSS_FUNCTIONS = new Set([
  'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color',
  'matrix', 'translate', 'translatex', 'translatey', 'scale', 'scalex', 'scaley', 'rotate', 'skewx', 'skewy',
  'calc', 'min', 'max', 'clamp', 'var',
  'not', 'is', 'where', 'nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type',
]);

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Text as the browser reads it: XML's own entities and character references decoded; null when another is used. */
function decodeXml(text: string): string | null {
  let unknown = false;
  const decoded = text.replace(/&([^;&\s]*);/g, (whole, name: string) => {
    const code = /^#x([0-9a-f]+)$/i.exec(name)?.[1] ?? /^#([0-9]+)$/.exec(name)?.[1];
    if (code !== undefined) {
      const point = name.startsWith('#x') || name.startsWith('#X') ? parseInt(code, 16) : parseInt(code, 10);
      if (point > 0 && point <= 0x10ffff) return String.fromCodePoint(point);
    } else if (name in XML_ENTITIES) return XML_ENTITIES[name]!;
    unknown = true;
    return whole;
  });
  return unknown ? null : decoded;
}

/** Why this CSS (a style sheet, a style attribute or a presentation attribute's value) is refused, or null. */
export function cssProblem(css: string): string | null {
  // A comment ends a token; read as a space, `ur/**/l(` is not url( and the check below stays conservative.
  const text = css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');
  if (text.includes('\\')) return "the SVG's CSS holds an escape (\\), which a site plan may not use";
  if (text.includes('@')) return "the SVG's CSS holds an at-rule (@import, @font-face ...), which a site plan may not use";
  for (const match of text.matchAll(/([-\w]*)\s*\(/g)) {
    const name = match[1]!.toLowerCase();
    if (name === 'url') {
      const end = text.indexOf(')', match.index + match[0].length);
      const argument = end < 0 ? '' : text.slice(match.index + match[0].length, end);
      if (!/^\s*(['"]?)#[^'"()\s]+\1\s*$/.test(argument))
        return 'the SVG refers to something outside the file (url)';
    } else if (!CSS_FUNCTIONS.has(name))
      return name
        ? `the SVG's CSS uses ${name}(), which a site plan may not use`
        : "the SVG's CSS holds a bracket outside a function a site plan may use";
  }
  return null;
}

type XmlNode = Record<string, unknown>;
const ATTRIBUTE_KEY = ':@';
const TEXT_KEY = '#text';
const CDATA_KEY = '#cdata';

/** An element of the parsed tree: its qualified name, attributes, children and the namespaces in scope. */
interface Visit {
  name: string;
  attributes: Record<string, unknown>;
  children: XmlNode[];
  scope: ReadonlyMap<string, string>;
}

const elementOf = (node: XmlNode): [string, XmlNode[]] | null => {
  const key = Object.keys(node).find((each) => each !== ATTRIBUTE_KEY);
  return key === undefined ? null : [key, node[key] as XmlNode[]];
};

/** The text of a style element as the browser reads it: its text and CDATA, in order; null for anything else. */
function styleText(children: XmlNode[]): string | null {
  let css = '';
  for (const child of children) {
    const [key, value] = elementOf(child) ?? ['', null];
    if (key === TEXT_KEY) {
      const text = decodeXml(String(value));
      if (text === null) return null;
      css += text;
    } else if (key === CDATA_KEY) css += (value as XmlNode[]).map((part) => String(part[TEXT_KEY] ?? '')).join('');
    else return null;
  }
  return css;
}

function checkAttributes(visit: Visit, shown: string): string | null {
  for (const [qualified, raw] of Object.entries(visit.attributes)) {
    if (qualified === 'xmlns' || qualified.startsWith('xmlns:')) continue;
    const value = decodeXml(String(raw));
    if (value === null) return `the SVG's attribute ${qualified} on ${shown} uses an entity that is not XML's own`;
    const colon = qualified.indexOf(':');
    const prefix = colon < 0 ? null : qualified.slice(0, colon);
    const local = colon < 0 ? qualified : qualified.slice(colon + 1);
    const namespace = prefix === null ? null : prefix === 'xml' ? XML_NAMESPACE : visit.scope.get(prefix);
    if (prefix !== null && namespace === undefined)
      return `the SVG's attribute ${qualified} on ${shown} uses an undeclared prefix (${prefix})`;
    const isHref = (namespace === null && local === 'href') || (namespace === XLINK_NAMESPACE && local === 'href');
    if (isHref) {
      if (!value.trim().startsWith('#')) return 'the SVG refers to something outside the file (href)';
      continue;
    }
    const allowed =
      (namespace === null && (ATTRIBUTES.has(local) || /^(data|aria)-[\w.-]+$/.test(local))) ||
      (namespace === XML_NAMESPACE && (local === 'space' || local === 'lang'));
    if (!allowed) return `the SVG has the attribute ${qualified} on ${shown}, which a site plan may not use`;
    if (namespace === null && !PLAIN_ATTRIBUTES.has(local) && !local.startsWith('data-') && !local.startsWith('aria-')) {
      const problem = cssProblem(value);
      if (problem) return `${problem} (attribute ${qualified} on ${shown})`;
    }
  }
  return null;
}

/** Checks every element of the tree, without recursion; answers the first problem, or null. */
function checkTree(root: Visit): string | null {
  const stack: Visit[] = [root];
  while (stack.length) {
    const visit = stack.pop()!;
    // The namespaces this element declares apply to its own name and attributes and to everything inside it.
    const scope = new Map(visit.scope);
    for (const [name, value] of Object.entries(visit.attributes)) {
      if (name === 'xmlns') scope.set('', String(value));
      else if (name.startsWith('xmlns:')) scope.set(name.slice('xmlns:'.length), String(value));
    }
    const current = { ...visit, scope };
    const colon = visit.name.indexOf(':');
    const prefix = colon < 0 ? '' : visit.name.slice(0, colon);
    const local = colon < 0 ? visit.name : visit.name.slice(colon + 1);
    const namespace = scope.get(prefix);
    const shown = `<${visit.name}>`;
    if (namespace === undefined) return `the SVG holds ${shown} with an undeclared prefix (${prefix})`;
    if (namespace !== SVG_NAMESPACE || !ELEMENTS.has(local)) {
      if (local.toLowerCase() === 'script') return 'the SVG holds a script';
      if (local.toLowerCase() === 'foreignobject') return 'the SVG holds embedded HTML (foreignObject)';
      const from = namespace === SVG_NAMESPACE ? '' : ` (from ${namespace || 'no namespace'})`;
      return `the SVG holds ${shown}${from}, which a site plan may not hold (save it as plain SVG: shapes, text, groups, gradients)`;
    }
    const attributeProblem = checkAttributes(current, shown);
    if (attributeProblem) return attributeProblem;
    if (local === 'style') {
      const css = styleText(visit.children);
      if (css === null) return 'the SVG has a style element holding something other than CSS text';
      const problem = cssProblem(css);
      if (problem) return problem;
      continue;
    }
    for (const child of visit.children) {
      const [key, value] = elementOf(child) ?? [TEXT_KEY, ''];
      if (key === TEXT_KEY) {
        if (decodeXml(String(value)) === null) return `the SVG's text in ${shown} uses an entity that is not XML's own`;
        continue;
      }
      // Character data is text too (shown in text, read in style); processing instructions inside are refused.
      if (key === CDATA_KEY) continue;
      if (key.startsWith('?')) return `the SVG holds a processing instruction (<${key}>), which a site plan may not hold`;
      stack.push({ name: key, attributes: (child[ATTRIBUTE_KEY] ?? {}) as Record<string, unknown>, children: value as XmlNode[], scope });
    }
  }
  return null;
}

export type SvgReading = { ok: true; root: Record<string, string> } | { ok: false; problem: string };

/** Reads an SVG site plan: the root element's attributes when everything in it is allowed, otherwise the problem. */
export function readAllowedSvg(text: string): SvgReading {
  // No document type: entities are how an XML file grows a billion laughs or reads a file of the server.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, problem: 'the SVG has a document type (DOCTYPE/ENTITY)' };
  if (XMLValidator.validate(text) !== true) return { ok: false, problem: 'the SVG is not well-formed XML' };
  let tree: XmlNode[];
  try {
    tree = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: '',
      processEntities: false,
      parseTagValue: false,
      trimValues: false,
      cdataPropName: CDATA_KEY,
      maxNestedTags: SVG_MAX_DEPTH,
    }).parse(text) as XmlNode[];
  } catch (error) {
    if (/nested/i.test(String((error as Error).message)))
      return { ok: false, problem: `the SVG nests elements more than ${SVG_MAX_DEPTH} deep` };
    return { ok: false, problem: 'the SVG is not well-formed XML' };
  }
  // The document: an optional XML declaration first, then one <svg> root (comments and white space aside).
  const nodes = tree.filter((node) => elementOf(node)?.[0] !== TEXT_KEY);
  const body = elementOf(nodes[0] ?? {})?.[0] === '?xml' ? nodes.slice(1) : nodes;
  const instruction = body.map((node) => elementOf(node)?.[0] ?? '').find((key) => key.startsWith('?'));
  if (instruction) return { ok: false, problem: `the SVG holds a processing instruction (<${instruction}>), which a site plan may not hold` };
  const [rootName, children] = (body.length === 1 && elementOf(body[0]!)) || ['', []];
  if (rootName.replace(/^.*:/, '') !== 'svg') return { ok: false, problem: 'the file is not an SVG image' };
  const attributes = (body[0]![ATTRIBUTE_KEY] ?? {}) as Record<string, string>;
  const prefix = rootName.includes(':') ? rootName.slice(0, rootName.indexOf(':')) : '';
  if (attributes[prefix ? `xmlns:${prefix}` : 'xmlns'] !== SVG_NAMESPACE)
    return { ok: false, problem: `the SVG's root must be in the SVG namespace (xmlns="${SVG_NAMESPACE}")` };
  const root: Visit = { name: rootName, attributes, children, scope: new Map() };
  const problem = checkTree(root);
  return problem ? { ok: false, problem } : { ok: true, root: attributes };
}
