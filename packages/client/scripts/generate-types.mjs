// Writes src/generated/openapi.ts, the client's types, from the API's generated OpenAPI document
// (public/openapi.json): the packages never import the Worker's sources. `npm run build:openapi` at the
// root runs this after writing the document; test/generated-types.test.ts fails when the file is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const documentPath = fileURLToPath(new URL('../../../public/openapi.json', import.meta.url));
export const typesPath = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const BANNER = `// Generated from public/openapi.json by packages/client/scripts/generate-types.mjs: do not edit.
// Run \`npm run build:openapi\` at the repository root after changing the API.

`;

/** The TypeScript source of the API's types, from the document as it is on disk now. */
export async function renderTypes() {
  const document = JSON.parse(await readFile(documentPath, 'utf8'));
  return BANNER + astToString(await openapiTS(document));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(typesPath, await renderTypes());
  console.log(`wrote ${typesPath}`);
}
