import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const doc = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/**
 * Replaces the part of docs/benchmarks.md between `<!-- key:begin (written by npm run script) -->` and
 * `<!-- key:end -->` (appending it the first time), so each benchmark rewrites only its own section.
 */
export function writeDocSection(key, script, sections) {
  const begin = `<!-- ${key}:begin (written by npm run ${script}) -->`;
  const end = `<!-- ${key}:end -->`;
  const body = [begin, ...sections, end].join('\n');
  const existing = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const from = existing.indexOf(begin);
  const to = existing.indexOf(end);
  const next = from >= 0 && to > from ? existing.slice(0, from) + body + existing.slice(to + end.length) : `${existing.trimEnd()}\n\n${body}\n`;
  writeFileSync(doc, next);
  console.log(`wrote ${doc}`);
}
