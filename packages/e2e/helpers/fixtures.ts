import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './paths';

/** A fixture of the project's test suite (test/fixtures, licences in its LICENSES.md files). */
export const fixturePath = (name: string) => join(root, 'test/fixtures', name);
export const fixture = (name: string) => new Uint8Array(readFileSync(fixturePath(name)));

/** A temporary folder holding copies of fixtures: relative path → fixture name. */
export function imageTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-e2e-'));
  for (const [path, name] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(fixturePath(name), join(dir, path));
  }
  return dir;
}
