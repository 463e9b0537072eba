// squeeze in a real terminal (tmux): one progress line cut to the width, and Ctrl-C in the middle of a run
// leaves no temporary file, the inputs as they were, and only complete outputs, each in the manifest.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { imageTree } from './helpers/fixtures';
import { createKey } from './helpers/keys';
import { squeezeBin } from './helpers/paths';

const WIDTH = 60;
const COUNT = 30;
const socket = `squeeze-e2e-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const FOLDER = 'photos/a-folder-with-a-name-long-enough-to-need-cutting';
const dir = imageTree(Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`${FOLDER}/cat-${String(i).padStart(2, '0')}.png`, 'api/chelsea.png'])));
const inputs = readdirSync(join(dir, FOLDER)).map((name) => join(FOLDER, name));
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // Already gone.
  }
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${tmux('capture-pane', '-p', '-t', 'run')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('shows one progress line within the width, and Ctrl-C stops cleanly with exit code 130', async () => {
  const original = Object.fromEntries(inputs.map((p) => [p, hash(join(dir, p))]));
  tmux('new-session', '-d', '-s', 'run', '-x', String(WIDTH), '-y', '20', 'bash --noprofile --norc');
  // CI=true would select the plain lines: a person's terminal has no CI variable.
  const command = [
    'unset CI',
    `cd ${dir}`,
    `SQUEEZE_API_KEY=${createKey('pro')} SQUEEZE_BASE_URL=${inject('baseUrl')} TERM=xterm ${process.execPath} ${squeezeBin} photos -c 1`,
  ].join('; ');
  tmux('send-keys', '-t', 'run', `${command}; echo "EXIT=$?" > exit-code`, 'Enter');

  const screen = await until('two files done', () => {
    const pane = tmux('capture-pane', '-p', '-t', 'run');
    return /^\[([2-9]|\d\d)\/30\]/m.test(pane) ? pane : undefined;
  });
  const status = screen.split('\n').filter((line) => /^\[\d+\/30\] /.test(line));
  expect(status).toHaveLength(1);
  expect([...status[0]!].length).toBeLessThan(WIDTH);
  expect(status[0]).toMatch(/^\[\d+\/30\] \d+\.\d KB saved · photos\/a-folder.*…$/);
  expect(screen).toMatch(/✓ photos\/a-folder/);

  tmux('send-keys', '-t', 'run', 'C-c');
  const exit = await until('the exit code', () => (existsSync(join(dir, 'exit-code')) ? readFileSync(join(dir, 'exit-code'), 'utf8').trim() : undefined));
  expect(exit).toBe('EXIT=130');
  expect(tmux('capture-pane', '-p', '-t', 'run')).toMatch(/Interrupted\./);

  const files = readdirSync(dir, { recursive: true }) as string[];
  expect(files.filter((f) => f.includes('squeeze-tmp'))).toEqual([]);
  for (const input of inputs) expect(hash(join(dir, input))).toBe(original[input]);
  const outputs = files.filter((f) => f.endsWith('.min.png'));
  expect(outputs.length).toBeGreaterThanOrEqual(2);
  expect(outputs.length).toBeLessThan(COUNT);
  // Every output there is whole: it is the one the manifest (in the folder of the outputs) recorded.
  const manifest = JSON.parse(readFileSync(join(dir, 'photos/squeeze-manifest.json'), 'utf8'));
  expect(Object.keys(manifest.outputs)).toHaveLength(outputs.length);
  for (const [output, record] of Object.entries(manifest.outputs) as [string, { outputHash: string }][]) {
    expect(hash(join(dir, 'photos', output))).toBe(record.outputHash);
  }
});
