import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/client';
import { renderTypes, typesPath } from '../scripts/generate-types.mjs';

const src = new URL('../src/', import.meta.url);

describe('the client package', () => {
  it('has its types generated from the committed public/openapi.json (run `npm run build:openapi` when this fails)', async () => {
    expect(await readFile(typesPath, 'utf8')).toBe(await renderTypes());
  });

  it('uses only web APIs outside its Node entry point (runs on Node, Deno, Bun and Workers alike)', async () => {
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts') && f !== 'node.ts' && !f.startsWith('generated'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = await readFile(new URL(file, src), 'utf8');
      expect(text, file).not.toMatch(/from ['"]node:|\brequire\(|\bprocess\.[a-z]|\bBuffer\./);
    }
  });

  it('claims no use in web pages, which the API does not allow (no CORS: keys belong on servers)', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const text of [pkg.description, readme]) expect(text).not.toMatch(/browsers?[),.]/i);
    expect(readme).toMatch(/not for web pages: the API grants no cross-origin \(CORS\)\s+access/);
  });

  it('has no runtime dependencies', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.type).toBe('module');
    expect(VERSION).toBe(pkg.version);
  });

  it.each(['client', 'cli'])('%s never imports the Worker’s sources', async (name) => {
    const dir = new URL(`../../${name}/src/`, import.meta.url);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(await readFile(new URL(file, dir), 'utf8'), file).not.toMatch(/from ['"](\.\.\/)+src\//);
  });
});
