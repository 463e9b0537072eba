// Renders /openapi.json as a readable page. The document is generated from the service's own schemas,
// so this page cannot drift from what the API accepts.
const root = document.getElementById('reference');

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** The small part of Markdown the document uses: paragraphs and `code`. */
function prose(markdown = '') {
  return markdown.split(/\n\s*\n/).map((paragraph) => inline(paragraph, 'p'));
}

/** One paragraph's text with its `code` spans, in a <p> or (inside table cells) a <span>. */
function inline(text, tag = 'span') {
  const node = element(tag);
  text.replace(/\s*\n\s*/g, ' ').split(/(`[^`]+`)/).forEach((part) => {
    node.append(part.startsWith('`') && part.endsWith('`') && part.length > 1 ? element('code', { textContent: part.slice(1, -1) }) : part);
  });
  return node;
}

function resolve(doc, schema) {
  if (!schema?.$ref) return schema ?? {};
  return schema.$ref.split('/').slice(1).reduce((node, key) => node[key], doc);
}

function typeOf(schema) {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.format === 'binary') return 'file (binary)';
  return [schema.type, schema.format].filter(Boolean).join(', ') || 'any';
}

function rulesOf(schema) {
  const rules = [];
  if (schema.minimum !== undefined) rules.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) rules.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) rules.push(`at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  return rules.join('; ');
}

/** Rows for every field of an object schema; nested objects become dotted names (usage.current). */
function fieldRows(doc, schema, prefix = '') {
  const object = resolve(doc, schema);
  return Object.entries(object.properties ?? {}).flatMap(([name, raw]) => {
    const field = resolve(doc, raw);
    const path = prefix + name;
    const required = (object.required ?? []).includes(name) ? 'yes' : 'no';
    const row = [element('code', { textContent: path }), typeOf(field), required, rulesOf(field), inline(field.description ?? '')];
    return field.type === 'object' ? [row, ...fieldRows(doc, field, `${path}.`)] : [row];
  });
}

function withLabel(td, label) {
  td.dataset.label = label;
  return td;
}

function table(headings, rows) {
  const head = element('thead', {}, element('tr', {}, ...headings.map((h) => element('th', { scope: 'col', textContent: h }))));
  // data-label lets a phone show each row as a small card with its own headings (docs.css).
  const cell = (content, i) => withLabel(element('td', {}, content), headings[i]);
  const body = element('tbody', {}, ...rows.map((cells) => element('tr', {}, ...cells.map(cell))));
  return element('div', { className: 'table-scroll' }, element('table', { className: 'stack' }, head, body));
}

const fieldTable = (doc, schema) => table(['Field', 'Type', 'Required', 'Rules', 'Description'], fieldRows(doc, schema));

function headerTable(doc, headers) {
  const rows = Object.entries(headers).map(([name, raw]) => {
    const header = resolve(doc, raw);
    return [element('code', { textContent: name }), typeOf(header.schema ?? {}), inline(header.description ?? '')];
  });
  return table(['Header', 'Type', 'Meaning'], rows);
}

function requestSection(doc, body) {
  if (!body) return [];
  return [
    element('h3', { textContent: 'Request body' }),
    ...Object.entries(body.content).flatMap(([type, media]) => [
      element('h4', {}, element('code', { textContent: type })),
      ...prose(resolve(doc, media.schema).description),
      fieldTable(doc, media.schema),
    ]),
  ];
}

function responseSection(doc, responses) {
  const nodes = [element('h3', { textContent: 'Responses' })];
  const errors = [];
  for (const [status, response] of Object.entries(responses)) {
    const json = response.content?.['application/json'];
    if (Number(status) >= 400) {
      for (const [code, example] of Object.entries(json?.examples ?? {})) {
        errors.push([element('span', { className: 'status-code', textContent: status }), element('code', { textContent: code }), example.value.message]);
      }
      continue;
    }
    nodes.push(element('h4', { textContent: `${status}: ${response.description}` }));
    nodes.push(element('p', {}, 'Content type: ', ...Object.keys(response.content ?? {}).flatMap((t, i) => [i ? ', ' : '', element('code', { textContent: t })])));
    if (json) nodes.push(fieldTable(doc, json.schema));
    if (response.headers) nodes.push(headerTable(doc, response.headers));
  }
  if (errors.length) {
    nodes.push(element('h4', { textContent: 'Errors' }));
    nodes.push(element('p', {}, 'JSON ', element('code', { textContent: '{"error", "message"}' }), '; 429 bodies add ', element('code', { textContent: 'resetAt' }), ' and a ', element('code', { textContent: 'Retry-After' }), ' header.'));
    nodes.push(table(['Status', 'Code', 'Meaning'], errors));
  }
  return nodes;
}

function examplesSection(samples = []) {
  if (!samples.length) return [];
  return [
    element('h3', { textContent: 'Examples' }),
    ...samples.flatMap((s) => [element('h4', { textContent: s.label }), element('pre', {}, element('code', { textContent: s.source }))]),
  ];
}

function operationSection(doc, path, method, op) {
  const keyed = (op.security ?? doc.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
  return element(
    'section',
    { className: 'operation', id: op.operationId },
    element('h2', {}, element('span', { className: `method ${method}`, textContent: method.toUpperCase() }), element('code', { textContent: path }), element('span', { className: 'summary', textContent: op.summary })),
    element('p', {}, element('span', { className: 'auth', textContent: keyed ? 'Needs X-API-Key' : 'No key needed' })),
    ...prose(op.description),
    ...requestSection(doc, op.requestBody),
    ...responseSection(doc, op.responses),
    ...examplesSection(op['x-codeSamples']),
  );
}

function render(doc) {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  const link = (href, text) => element('li', {}, element('a', { href, textContent: text }));
  const key = Object.values(doc.components.securitySchemes)[0];
  root.replaceChildren(
    ...prose(doc.info.description),
    element('nav', { className: 'toc', ariaLabel: 'Contents' }, element('h2', { textContent: 'Contents' }), element('ul', {},
      link('#basics', 'Base URL and authentication'),
      ...operations.map(({ path, method, op }) => link(`#${op.operationId}`, `${method.toUpperCase()} ${path}: ${op.summary}`)),
      link('#headers', 'Response headers'),
      link('#errors', 'Error codes'),
    )),
    element('section', { id: 'basics' },
      element('h2', { textContent: 'Base URL and authentication' }),
      element('p', {}, 'The examples use two shell variables:'),
      element('pre', {}, element('code', { textContent: `export BASE_URL=${location.origin}\nexport API_KEY=<your key>` })),
      element('p', {}, 'Send the key in the ', element('code', { textContent: key.name }), ` ${key.in}. `, element('a', { href: '/getting-started#key', textContent: 'How to get a key' }), '.'),
      element('p', {}, `Interface version ${doc.info.version}; the version is the /v1 prefix of the paths.`),
    ),
    ...operations.map(({ path, method, op }) => operationSection(doc, path, method, op)),
    element('section', { id: 'headers', className: 'operation' }, element('h2', { textContent: 'Response headers' }), headerTable(doc, doc.components.headers)),
    element('section', { id: 'errors', className: 'operation' },
      element('h2', { textContent: 'Error codes' }),
      ...prose('Every error is JSON `{"error": "<code>", "message": "..."}`; the message is for people and may change, the code is for programs.'),
      table(['Status', 'Code', 'Default message'], doc['x-error-codes'].map((e) => [String(e.status), element('code', { textContent: e.code }), e.message])),
    ),
  );
  root.removeAttribute('aria-busy');
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

fetch('/openapi.json')
  .then((response) => {
    if (!response.ok) throw new Error(`status ${response.status}`);
    return response.json();
  })
  .then(render)
  .catch((error) => {
    root.removeAttribute('aria-busy');
    root.replaceChildren(element('p', {}, `The reference could not be loaded (${error.message}). The `, element('a', { href: '/openapi.json', textContent: 'OpenAPI document' }), ' has everything in it.'));
  });
