/**
 * XMP packets (ISO 16684-1): an RDF/XML document whose rdf:Description elements hold the properties, as
 * attributes (simple values) or child elements (any value: text, rdf:Seq/Bag/Alt of rdf:li, structures).
 * This is a small XML reader for that subset, enough to pick properties out by namespace and name and write
 * them into a new packet: elements, attributes, namespaces, text, CDATA, character and the five predefined
 * entity references. A DOCTYPE (where entity bombs live), an unbound prefix or mismatched tags make the
 * packet unreadable: it is then not kept at all.
 */

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const META_NS = 'adobe:ns:meta/';

export interface XmlAttribute {
  ns: string;
  name: string;
  value: string;
}

export interface XmlElement {
  ns: string;
  name: string;
  /** The prefix it was written with, reused when it names no other namespace in the new packet. */
  prefix: string;
  attributes: XmlAttribute[];
  children: Array<XmlElement | string>;
}

/** Nesting deeper than this is no XMP a camera or an editor writes. */
const MAX_DEPTH = 64;

const NAME = /[^\s=/>"'<]+/y;
const ATTRIBUTE = /\s*([^\s=/>"'<]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

type Scope = Record<string, string>;

/** The document's root element, or null when it is not XML this reader accepts. */
export function parseXml(text: string): XmlElement | null {
  const stack: Array<{ element: XmlElement; qname: string; scope: Scope }> = [];
  let root: XmlElement | null = null;
  let at = 0;
  const rootScope: Scope = Object.assign(Object.create(null) as Scope, { xml: XML_NS });
  while (at < text.length) {
    const open = text.indexOf('<', at);
    const chunk = text.slice(at, open < 0 ? text.length : open);
    if (chunk && stack.length) {
      const decoded = decodeText(chunk);
      if (decoded === null) return null;
      stack.at(-1)!.element.children.push(decoded);
    } else if (chunk.trim() && !stack.length) return null;
    if (open < 0) break;
    if (text.startsWith('<?', open)) at = skipPast(text, open, '?>');
    else if (text.startsWith('<!--', open)) at = skipPast(text, open, '-->');
    else if (text.startsWith('<![CDATA[', open)) {
      const end = text.indexOf(']]>', open);
      if (end < 0 || !stack.length) return null;
      stack.at(-1)!.element.children.push(text.slice(open + 9, end));
      at = end + 3;
    } else if (text.startsWith('<!', open)) return null;
    else if (text.startsWith('</', open)) {
      const close = text.indexOf('>', open);
      const top = stack.pop();
      if (close < 0 || !top || text.slice(open + 2, close).trim() !== top.qname) return null;
      at = close + 1;
      if (!stack.length) root = top.element;
    } else {
      const tag = readTag(text, open + 1, stack.at(-1)?.scope ?? rootScope);
      if (!tag || stack.length >= MAX_DEPTH || (root && !stack.length)) return null;
      stack.at(-1)?.element.children.push(tag.element);
      if (tag.selfClosing) {
        if (!stack.length) root = tag.element;
      } else stack.push(tag);
      at = tag.end;
    }
    if (at < 0) return null;
  }
  return stack.length ? null : root;
}

function skipPast(text: string, from: number, end: string): number {
  const found = text.indexOf(end, from);
  return found < 0 ? -1 : found + end.length;
}

/** A start tag from after its '<': the element with resolved namespaces, its scope, and where it ends. */
function readTag(text: string, from: number, parent: Scope) {
  NAME.lastIndex = from;
  const qname = NAME.exec(text)?.[0];
  if (!qname) return null;
  const raw: Array<[string, string]> = [];
  let at = from + qname.length;
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(text);
    if (!m) break;
    const value = decodeText(m[2] ?? m[3]!);
    if (value === null) return null;
    raw.push([m[1]!, value]);
    at = ATTRIBUTE.lastIndex;
  }
  while (/\s/.test(text[at] ?? '')) at++;
  const selfClosing = text.startsWith('/>', at);
  if (!selfClosing && text[at] !== '>') return null;
  let scope = parent;
  for (const [name, value] of raw) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    if (scope === parent) scope = Object.create(parent) as Scope;
    scope[name === 'xmlns' ? '' : name.slice(6)] = value;
  }
  const resolve = (name: string, isElement: boolean) => {
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    // Unprefixed attributes are in no namespace; unprefixed elements in the default one.
    const ns = prefix === '' && !isElement ? '' : scope[prefix];
    return ns === undefined ? null : { ns, prefix, name: name.slice(colon + 1) };
  };
  const element = resolve(qname, true);
  if (!element) return null;
  const attributes: XmlAttribute[] = [];
  for (const [name, value] of raw) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const resolved = resolve(name, false);
    if (!resolved) return null;
    attributes.push({ ns: resolved.ns, name: resolved.name, value });
  }
  return { element: { ...element, attributes, children: [] } as XmlElement, qname, scope, selfClosing, end: at + (selfClosing ? 2 : 1) };
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Text with its references resolved; null on an unknown entity or a character XML does not allow. */
function decodeText(text: string): string | null {
  let bad = false;
  const decoded = text.replace(/&([^;&]*);?/g, (whole, ref: string) => {
    const code = /^#x[0-9a-f]{1,6}$/i.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]{1,7}$/.test(ref) ? Number(ref.slice(1)) : undefined;
    if (!whole.endsWith(';')) bad = true;
    else if (code !== undefined && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
    else if (ENTITIES[ref] !== undefined) return ENTITIES[ref];
    else bad = true;
    return '';
  });
  return bad ? null : decoded;
}

/**
 * The properties of a packet's rdf:Description elements, in document order, as elements: an attribute
 * property becomes an element holding its text, so every property is written the same way.
 */
export function xmpProperties(root: XmlElement): XmlElement[] {
  const rdf = findRdf(root);
  if (!rdf) return [];
  const properties: XmlElement[] = [];
  for (const description of rdf.children) {
    if (typeof description === 'string' || description.ns !== RDF_NS || description.name !== 'Description') continue;
    for (const a of description.attributes) {
      if (a.ns === RDF_NS || a.ns === XML_NS || a.ns === XMLNS_NS || a.ns === '') continue;
      properties.push({ ns: a.ns, name: a.name, prefix: '', attributes: [], children: [a.value] });
    }
    for (const child of description.children) if (typeof child !== 'string') properties.push(child);
  }
  return properties;
}

function findRdf(element: XmlElement, depth = 0): XmlElement | undefined {
  if (element.ns === RDF_NS && element.name === 'RDF') return element;
  if (depth > 2) return undefined;
  for (const child of element.children) {
    const found = typeof child === 'string' ? undefined : findRdf(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The prefixes the new packet writes the usual namespaces with (those of the XMP and IPTC specifications). */
const PREFIXES: Record<string, string> = {
  [RDF_NS]: 'rdf',
  [XML_NS]: 'xml',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://ns.adobe.com/xap/1.0/': 'xmp',
  'http://ns.adobe.com/xap/1.0/rights/': 'xmpRights',
  'http://ns.adobe.com/photoshop/1.0/': 'photoshop',
  'http://ns.adobe.com/exif/1.0/': 'exif',
  'http://ns.useplus.org/ldf/xmp/1.0/': 'plus',
  'http://creativecommons.org/ns#': 'cc',
  'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/': 'Iptc4xmpCore',
  'http://iptc.org/std/Iptc4xmpExt/2008-02-29/': 'Iptc4xmpExt',
};

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) =>
  escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/** The namespaces used in these elements, each given a prefix: the usual one, else the element's own if free, else a new one. */
function assignPrefixes(elements: readonly XmlElement[]): Map<string, string> {
  const prefixes = new Map<string, string>();
  const taken = new Set(Object.values(PREFIXES));
  const visit = (ns: string, own: string) => {
    if (ns === '' || prefixes.has(ns)) return;
    const prefix = PREFIXES[ns] ?? (own && !taken.has(own) && !/^xml/i.test(own) ? own : `ns${prefixes.size + 1}`);
    taken.add(prefix);
    prefixes.set(ns, prefix);
  };
  const walk = (element: XmlElement) => {
    visit(element.ns, element.prefix);
    for (const a of element.attributes) visit(a.ns, '');
    for (const child of element.children) if (typeof child !== 'string') walk(child);
  };
  elements.forEach(walk);
  return prefixes;
}

function writeElement(element: XmlElement, prefixes: Map<string, string>): string {
  const qname = (ns: string, name: string) => (ns === '' ? name : `${prefixes.get(ns)}:${name}`);
  const name = qname(element.ns, element.name);
  const attributes = element.attributes.map((a) => ` ${qname(a.ns, a.name)}="${escapeAttribute(a.value)}"`).join('');
  if (!element.children.length) return `<${name}${attributes}/>`;
  const children = element.children.map((c) => (typeof c === 'string' ? escapeText(c) : writeElement(c, prefixes))).join('');
  return `<${name}${attributes}>${children}</${name}>`;
}

/** A property element in a namespace with the given children, for values that come from elsewhere (IPTC). */
export function xmpElement(ns: string, name: string, children: XmlElement['children'], attributes: XmlAttribute[] = []): XmlElement {
  return { ns, name, prefix: '', attributes, children };
}

/** A simple value (text alone) is written as an attribute of rdf:Description, RDF's short form; anything else as an element. */
const isSimple = (p: XmlElement) => !p.attributes.length && p.children.every((c) => typeof c === 'string');

function writeProperty(p: XmlElement, prefixes: Map<string, string>): string {
  return isSimple(p) ? ` ${prefixes.get(p.ns)}:${p.name}="${escapeAttribute(p.children.join(''))}"` : writeElement(p, prefixes);
}

/** The bytes a property adds to a packet, its namespace declaration aside. */
export function propertyBytes(property: XmlElement): number {
  return new TextEncoder().encode(writeProperty(property, assignPrefixes([property]))).length;
}

/** A new packet (UTF-8, no padding, read-only end) holding these properties in one rdf:Description. */
export function buildXmp(properties: readonly XmlElement[]): Uint8Array {
  const prefixes = assignPrefixes(properties);
  const declarations = [...prefixes]
    .filter(([ns]) => ns !== RDF_NS && ns !== XML_NS)
    .map(([ns, prefix]) => ` xmlns:${prefix}="${escapeAttribute(ns)}"`)
    .join('');
  const attributes = properties.filter(isSimple).map((p) => writeProperty(p, prefixes)).join('');
  const elements = properties.filter((p) => !isSimple(p)).map((p) => writeProperty(p, prefixes)).join('');
  return new TextEncoder().encode(
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="${META_NS}"><rdf:RDF xmlns:rdf="${RDF_NS}">` +
      `<rdf:Description rdf:about=""${declarations}${attributes}>${elements}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="r"?>`,
  );
}

/** A packet's text: UTF-8 (what XMP in JPEG, PNG iTXt and WebP must be), a BOM aside; null when it is not. */
export function xmpText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}
