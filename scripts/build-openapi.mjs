// Writes public/openapi.json from the zod schemas (src/docs/openapi.ts), so the static reference at
// /docs is served as an asset and costs the Worker nothing per view. test/openapi.test.ts fails when
// the committed file differs from a fresh build: run `npm run build:openapi` after changing a schema.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
// esbuild turns the TypeScript sources into one module Node can import.
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}public/openapi.json`;

const bundle = await build({
  entryPoints: [`${root}src/docs/openapi.ts`],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'warning',
});
const source = bundle.outputFiles[0].text;
const { buildOpenApiDocument } = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
const document = buildOpenApiDocument();

// Validate a copy: the validator dereferences the object it is given in place.
await SwaggerParser.validate(structuredClone(document));
await writeFile(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${out} (valid OpenAPI ${document.openapi})`);
