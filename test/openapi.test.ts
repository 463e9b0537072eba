import { describe, expect, it } from 'vitest';
import committed from '../public/openapi.json';
import { app } from '../src/app';
import { buildOpenApiDocument } from '../src/docs/openapi';
import { ERROR_CODES } from '../src/errors/codes';

const document = buildOpenApiDocument();
type Operation = { responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }> };
const operations = Object.values(document.paths).flatMap((item) => Object.values(item) as Operation[]);

describe('OpenAPI document', () => {
  it('is the committed public/openapi.json (run `npm run build:openapi` after changing a schema)', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(committed);
  });

  it('lists every API route the app serves (the dashboard, sign-in and outbox pages are HTML, not API)', () => {
    const isApi = (path: string) => path === '/health' || path.startsWith('/v1/');
    const served = app.routes.filter((r) => r.method !== 'ALL' && isApi(r.path)).map((r) => `${r.method} ${r.path}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it('lists every error code of the registry, with its status', () => {
    const codes = Object.keys(ERROR_CODES);
    expect(document['x-error-codes'].map((e) => e.code)).toEqual(codes);
    expect(document.components.schemas.Error.properties).toMatchObject({ error: { enum: codes } });
    for (const { code, status } of document['x-error-codes']) expect(status).toBe(ERROR_CODES[code].status);
  });

  it('documents each operation error under the status the registry gives it', () => {
    for (const operation of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const examples = Object.keys(response.content?.['application/json']?.examples ?? {});
        for (const code of examples) expect(String(ERROR_CODES[code as keyof typeof ERROR_CODES].status)).toBe(status);
      }
    }
  });

  it('describes multipart integers by their JSON rule, not as text', () => {
    const { properties: multipart, required } = document.components.schemas.CompressMultipartRequest as { properties: Record<string, unknown>; required: string[] };
    expect(required).toEqual(['file']);
    expect(multipart.quality).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 80 });
    expect(multipart.file).toMatchObject({ type: 'string', format: 'binary' });
  });
});

describe('OpenAPI texts, for the people who read /docs (issue 21)', () => {
  type Schema = { description?: string; properties?: Record<string, Schema> };
  const schemas = document.components.schemas as Record<string, Schema>;

  it('describes every field a request can send', () => {
    for (const name of ['CompressRequest', 'CompressMultipartRequest', 'DemoJsonRequest', 'DemoMultipartRequest']) {
      for (const [field, schema] of Object.entries(schemas[name]!.properties!)) expect(schema.description, `${name}.${field}`).toBeTruthy();
    }
    expect(schemas.CompressRequest!.properties!.maxWidth!.description).toMatch(/scaled down .*never enlarged/);
  });

  it('says what quality does in the words of a user, not of the lab', () => {
    const quality = schemas.CompressRequest!.properties!.quality!.description!;
    expect(quality).toMatch(/^Visual quality/);
    expect(quality).not.toMatch(/butteraugli|SSIMULACRA|jpegli|mozjpeg|quantis/i);
  });

  it('calls /v1/usage the account’s usage, with the key’s share beside it', () => {
    const usage = document.paths['/v1/usage'].get;
    expect(`${usage.summary} ${usage.description}`).toMatch(/account/);
    expect(usage.summary).not.toMatch(/of the key/);
    expect(schemas.UsageResponse!.properties!.usage!.description).toMatch(/account/);
  });
});
