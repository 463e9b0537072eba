// Issue 21, item 2: the README's curl examples and the ones /docs shows (the x-codeSamples of the served
// /openapi.json) run as written, in bash, against the Worker, on photos over 1 MB: the base64 ones used to
// stop at "Argument list too long". The only edits are the ones a reader makes: their key for `sqz_...`,
// and the README's http://127.0.0.1:8787 for the server's address. Examples that send a URL are left out
// (the Worker would fetch the internet).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sniffFormat } from '@squeeze-edge/client';
import { bigPhotos } from './helpers/big-photo';
import { createKey } from './helpers/keys';
import { root } from './helpers/paths';

let key: string;
let photos: { jpeg: Uint8Array; png: Uint8Array };
const folders: string[] = [];

beforeAll(async () => {
  key = createKey('pro');
  photos = await bigPhotos(inject('baseUrl'), key);
}, 180_000);
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The commands of a shell block, a command being its lines joined where one ends with `\` or `|`; comments dropped. */
function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of block.split('\n')) {
    if (!current && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += `${current ? '\n' : ''}${line}`;
    if (!/[\\|]\s*$/.test(line)) {
      commands.push(current);
      current = '';
    }
  }
  return commands;
}

const sendsUrl = (command: string) => /"url"/.test(command);

/** The README's shell blocks that call the API, without their URL-input commands. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((block) => /\bcurl\b/.test(block) && /127\.0\.0\.1:8787\/(v1|health)/.test(block))
    .map((block) => commandsOf(block).filter((c) => !sendsUrl(c)).join('\n'));
}

/**
 * Runs `script` in bash, as a reader pastes it, in a folder holding photo.jpg (a JPEG over 1 MB), photo.png
 * and logo.png (a PNG over 1 MB), and returns what it printed and the format of every `-o FILE` it made.
 */
function runExample(script: string, env: Record<string, string>): { stdout: string; outputs: Record<string, string | null> } {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-examples-'));
  folders.push(dir);
  writeFileSync(join(dir, 'photo.jpg'), photos.jpeg);
  writeFileSync(join(dir, 'photo.png'), photos.png);
  writeFileSync(join(dir, 'logo.png'), photos.png);
  const stdout = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, maxBuffer: 64 * 1_048_576 });
  const outputs = Object.fromEntries([...script.matchAll(/-o (\S+)/g)].map(([, file]) => [file!, sniffFormat(readFileSync(join(dir, file!)))]));
  return { stdout, outputs };
}

function expectAllOk({ stdout, outputs }: ReturnType<typeof runExample>): void {
  for (const [file, format] of Object.entries(outputs)) expect(format, `${file} is an image`).not.toBeNull();
  // curl asks large uploads to be let through (Expect: 100-continue): -D - prints that 100 before the answer.
  for (const [, status] of stdout.matchAll(/^HTTP\/[\d.]+ (\d+)/gm)) if (status !== '100') expect(status).toBe('200');
  expect(stdout).not.toMatch(/"error"/);
}

it('the photos are over 1 MB', () => {
  expect(photos.jpeg.length).toBeGreaterThan(1_048_576);
  expect(photos.png.length).toBeGreaterThan(1_048_576);
});

describe("the README's examples", () => {
  const examples = readmeExamples();

  it('are found: the key, compress (upload and base64), demo (upload and base64), health and usage', () => {
    expect(examples.join('\n')).toMatch(/base64 < logo\.png[\s\S]*base64 < photo\.jpg/);
    expect(examples).toHaveLength(5);
  });

  it.each(examples.map((script, i) => [i, script]))('example block %i runs as written', (_i, script) => {
    const written = script.replaceAll('sqz_...', key).replaceAll('http://127.0.0.1:8787', inject('baseUrl'));
    expectAllOk(runExample(written, { KEY: key }));
  });
});

describe('the examples /docs shows', () => {
  it('run as written, with BASE_URL and API_KEY set as the page says', async () => {
    const document = await (await fetch(`${inject('baseUrl')}/openapi.json`)).json();
    const samples: { label: string; source: string }[] = Object.values(document.paths as Record<string, Record<string, { 'x-codeSamples'?: { label: string; source: string }[] }>>).flatMap((item) =>
      Object.values(item).flatMap((operation) => operation['x-codeSamples'] ?? []),
    );
    const run = samples.filter((s) => !sendsUrl(s.source));
    expect(run.map((s) => s.source).join('\n')).toMatch(/base64 < logo\.png[\s\S]*base64 < photo\.jpg/);
    for (const sample of run) {
      const result = runExample(sample.source, { BASE_URL: inject('baseUrl'), API_KEY: key });
      expectAllOk(result);
    }
    expect(samples.length - run.length).toBe(1);
  });
});
