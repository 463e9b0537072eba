import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '@squeeze-edge/client/node';
import { UsageError } from './exit-codes.js';
import { hashFile } from './hash.js';
import { isWithin } from './output-tree.js';
import { shown } from './terminal-text.js';

/** One output written: what it was made from, with which options, and its content then. */
export interface OutputRecord {
  /** The input's path, relative to the manifest's folder. */
  input: string;
  /** SHA-256 of the input that was sent. */
  inputHash: string;
  /** SHA-256 of the output written. */
  outputHash: string;
  /** The options that made it (optionsKey). */
  options: string;
  originalSize: number;
  compressedSize: number;
}

/** An input the API refused with 413: not sent again while its content and the options are these. */
export interface Refusal {
  inputHash: string;
  options: string;
  code: string;
  message: string;
}

interface ManifestFile {
  squeezeManifest: 2;
  /** By the output's path, relative to the manifest's folder: several output folders of one input coexist. */
  outputs: Record<string, OutputRecord>;
  /** By the input's path, relative to the manifest's folder. */
  refused: Record<string, Refusal>;
}

/** Version 1 kept one record per input, by the input's path (`written` was the output's). */
interface ManifestFileV1 {
  squeezeManifest: 1;
  files: Record<string, { input: string; output: string; options: string; written: string; originalSize: number; compressedSize: number }>;
}

export const DEFAULT_MANIFEST = 'squeeze-manifest.json';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The top of the git work tree holding `folder` (the folder with `.git`), if any. */
async function gitTop(folder: string): Promise<string | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (await exists(join(dir, '.git'))) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}

/**
 * Where the manifest of the outputs under `root` (the -o folder, or the inputs' common folder) is: the
 * nearest squeeze-manifest.json in `root` or a folder above it, looking up to the top of its git work
 * tree (outside one, up to the working folder), so that a run on a subfolder finds the record of a run on
 * the whole tree; else a new one in `root`, where the outputs are.
 */
export async function manifestPathFor(root: string, cwd: string): Promise<string> {
  const top = (await gitTop(root)) ?? (isWithin(root, cwd) ? cwd : root);
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_MANIFEST);
    if (await exists(candidate)) return candidate;
    if (dir === top || dir === dirname(dir)) return join(root, DEFAULT_MANIFEST);
  }
}

function fromV1(v1: ManifestFileV1): ManifestFile {
  const outputs: ManifestFile['outputs'] = {};
  for (const [input, e] of Object.entries(v1.files)) {
    outputs[e.written] = { input, inputHash: e.input, outputHash: e.output, options: e.options, originalSize: e.originalSize, compressedSize: e.compressedSize };
  }
  return { squeezeManifest: 2, outputs, refused: {} };
}

const sortedByKey = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The record of done work, checked by content hash: an output is done when it is still the file written
 * from this input's current content with these options (with --in-place, when the input is itself that
 * output). It also remembers the inputs the API refused with 413, so they are not sent again unchanged.
 * Committed beside the images, it lets `squeeze check` gate CI without calling the API.
 */
export class Manifest {
  readonly #path: string | undefined;
  /** Where keys are relative to: the manifest's folder, or the working folder without a manifest. */
  readonly #dir: string;
  readonly #data: ManifestFile;
  #saving: Promise<void> = Promise.resolve();

  private constructor(path: string | undefined, dir: string, data: ManifestFile) {
    this.#path = path;
    this.#dir = dir;
    this.#data = data;
  }

  /** The manifest at `path`, an absolute path (none yet: empty); undefined: an unsaved one (--no-manifest). */
  static async load(path: string | undefined, cwd: string): Promise<Manifest> {
    const empty = (): ManifestFile => ({ squeezeManifest: 2, outputs: {}, refused: {} });
    if (path === undefined) return new Manifest(undefined, cwd, empty());
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Manifest(path, dirname(path), empty());
      throw new UsageError(`Cannot read the manifest ${shown(path)}: ${shown((err as Error).message)}`);
    }
    let parsed: Partial<ManifestFile> | Partial<ManifestFileV1>;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {};
    }
    const isObject = (v: unknown) => typeof v === 'object' && v !== null;
    if (parsed.squeezeManifest === 1 && isObject(parsed.files)) return new Manifest(path, dirname(path), fromV1(parsed as ManifestFileV1));
    if (parsed.squeezeManifest !== 2 || !isObject(parsed.outputs) || !isObject(parsed.refused)) {
      throw new UsageError(`${shown(path)} is not a squeeze manifest: move it away or name another with --manifest.`);
    }
    return new Manifest(path, dirname(path), parsed as ManifestFile);
  }

  get path(): string | undefined {
    return this.#path;
  }

  #key(path: string): string {
    return relative(this.#dir, path).split(sep).join('/');
  }

  /** Whether `output` is done: written from `input` (whose content now hashes to `hash`) with these options, and unchanged since. */
  async isDone(input: string, hash: string, options: string, output: string): Promise<boolean> {
    const record = this.#data.outputs[this.#key(output)];
    if (record?.options !== options) return false;
    if (output === input) return record.input === this.#key(input) && hash === record.outputHash;
    return hash === record.inputHash && (await this.wrote(input, output));
  }

  /** Whether `output` is still the file written from `input` (so a run may replace it without --force). */
  async wrote(input: string, output: string): Promise<boolean> {
    const record = this.#data.outputs[this.#key(output)];
    return record?.input === this.#key(input) && (await hashFile(output)) === record.outputHash;
  }

  /** The API's earlier refusal of `input` with this content and these options, if any. */
  refusal(input: string, hash: string, options: string): Refusal | undefined {
    const refusal = this.#data.refused[this.#key(input)];
    return refusal && refusal.inputHash === hash && refusal.options === options ? refusal : undefined;
  }

  /** Records an output written (and forgets an earlier refusal of its input); saves the manifest. */
  record(input: string, output: string, entry: Omit<OutputRecord, 'input'>): Promise<void> {
    this.#data.outputs[this.#key(output)] = { input: this.#key(input), ...entry };
    delete this.#data.refused[this.#key(input)];
    return this.save();
  }

  /** Records the API's 413 for `input`; saves the manifest. */
  recordRefusal(input: string, refusal: Refusal): Promise<void> {
    this.#data.refused[this.#key(input)] = refusal;
    return this.save();
  }

  save(): Promise<void> {
    const path = this.#path;
    if (path === undefined) return Promise.resolve();
    const data: ManifestFile = { squeezeManifest: 2, outputs: sortedByKey(this.#data.outputs), refused: sortedByKey(this.#data.refused) };
    const text = `${JSON.stringify(data, null, 2)}\n`;
    this.#saving = this.#saving
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(path), { recursive: true });
        await writeFileAtomic(path, text);
      });
    return this.#saving;
  }
}
