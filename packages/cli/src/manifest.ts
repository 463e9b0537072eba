import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '@squeeze-edge/client/node';
import { UsageError } from './exit-codes.js';
import { hashFile } from './hash.js';

/** What was done to one input: its content then, the output's content, the options, where it went. */
export interface ManifestEntry {
  /** SHA-256 of the input that was sent. */
  input: string;
  /** SHA-256 of the output written. */
  output: string;
  /** The options that made it (optionsKey). */
  options: string;
  /** The output's path, relative to the manifest's folder (the input's own with --in-place). */
  written: string;
  originalSize: number;
  compressedSize: number;
}

interface ManifestFile {
  squeezeManifest: 1;
  files: Record<string, ManifestEntry>;
}

export const DEFAULT_MANIFEST = 'squeeze-manifest.json';

/**
 * The record of done work, keyed by each input's path relative to the manifest's folder and checked by
 * content hash: a second run skips an input whose content and options are those recorded and whose
 * output is still the one written, or an input that is itself the recorded output (done in place).
 * Committed beside the images, it lets `squeeze check` gate CI without calling the API.
 */
export class Manifest {
  readonly #path: string | undefined;
  /** Where keys are relative to: the manifest's folder, or the working folder without a manifest. */
  readonly #dir: string;
  readonly #files: Record<string, ManifestEntry>;
  #saving: Promise<void> = Promise.resolve();

  private constructor(path: string | undefined, dir: string, files: Record<string, ManifestEntry>) {
    this.#path = path;
    this.#dir = dir;
    this.#files = files;
  }

  /** The manifest at `path`, an absolute path (none yet: empty); undefined: an unsaved one (--no-manifest). */
  static async load(path: string | undefined, cwd: string): Promise<Manifest> {
    if (path === undefined) return new Manifest(undefined, cwd, {});
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Manifest(path, dirname(path), {});
      throw new UsageError(`Cannot read the manifest ${path}: ${(err as Error).message}`);
    }
    let parsed: Partial<ManifestFile>;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {};
    }
    if (parsed.squeezeManifest !== 1 || typeof parsed.files !== 'object' || parsed.files === null) {
      throw new UsageError(`${path} is not a squeeze manifest: move it away or name another with --manifest.`);
    }
    return new Manifest(path, dirname(path), parsed.files);
  }

  get path(): string | undefined {
    return this.#path;
  }

  #key(path: string): string {
    return relative(this.#dir, path).split(sep).join('/');
  }

  /** Whether `input` (whose content hashes to `hash`) is done with these options, its output being `output`. */
  async isDone(input: string, hash: string, options: string, output: string): Promise<boolean> {
    const entry = this.#files[this.#key(input)];
    if (!entry || entry.options !== options) return false;
    if (hash === entry.output) return true;
    if (hash !== entry.input || resolve(this.#dir, entry.written) !== output) return false;
    return (await hashFile(output)) === entry.output;
  }

  /** Records a done input and saves the manifest (atomically; saves run one after another). */
  record(input: string, output: string, entry: Omit<ManifestEntry, 'written'>): Promise<void> {
    this.#files[this.#key(input)] = { ...entry, written: this.#key(output) };
    return this.save();
  }

  save(): Promise<void> {
    const path = this.#path;
    if (path === undefined) return Promise.resolve();
    const sorted = Object.fromEntries(Object.entries(this.#files).sort(([a], [b]) => (a < b ? -1 : 1)));
    const text = `${JSON.stringify({ squeezeManifest: 1, files: sorted } satisfies ManifestFile, null, 2)}\n`;
    this.#saving = this.#saving.catch(() => undefined).then(() => writeFileAtomic(path, text));
    return this.#saving;
  }
}
