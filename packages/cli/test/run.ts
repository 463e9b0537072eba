import { mkdtemp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../src/main';
import type { Output } from '../src/report';

export class Captured implements Output {
  text = '';
  constructor(
    readonly isTTY = false,
    readonly columns = 80,
  ) {}
  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
    callback?.();
    return true;
  }
}

/** Runs squeeze in this process, as the binary would, with its own folder, environment and streams. */
export async function squeeze(argv: string[], options: { cwd: string; env?: Record<string, string>; stdin?: Uint8Array; signal?: AbortSignal; stderr?: Captured }) {
  const stdout = new Captured();
  const stderr = options.stderr ?? new Captured();
  const code = await main(argv, {
    cwd: options.cwd,
    env: { HOME: options.cwd, ...options.env },
    stdin: Readable.from(options.stdin ? [Buffer.from(options.stdin)] : []),
    stdout,
    stderr,
    signal: options.signal ?? new AbortController().signal,
  });
  return { code, stdout: stdout.text, stderr: stderr.text, json: () => JSON.parse(stdout.text) };
}

/** A temporary folder with these files (path → bytes). */
export async function tree(files: Record<string, Uint8Array | string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'squeeze-cli-'));
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), bytes);
  }
  return dir;
}

/** Every file under `root`, relative to it, sorted. */
export async function files(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}
