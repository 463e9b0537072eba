import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { checkImage, isSqueezeError, type ImageFormat } from '@squeeze-edge/client';
import { fileBlob } from '@squeeze-edge/client/node';
import type { Args } from './args.js';
import { UsageError } from './exit-codes.js';
import { hashFile } from './hash.js';
import type { Manifest } from './manifest.js';
import { staysInside } from './output-tree.js';
import { shown } from './terminal-text.js';

/** One input and everything decided about it before the first upload. */
export interface Job {
  input: string;
  /** The input as shown to the user: relative to the working folder. */
  display: string;
  size: number;
  /** Its format by its bytes; undefined when the local pre-check refused it (see `problem`). */
  format?: ImageFormat;
  /** Why it will not be sent: the local pre-check refused it, or the API refused it before (413) as it is. */
  problem?: { code: string; message: string };
  /** Where the output goes, for each format the API may answer with. */
  outputs: Partial<Record<ImageFormat, string>>;
  /** --in-place --backup: where the original is kept. */
  backup?: string;
  /** With -o, the folder its outputs must really be in (no symbolic link out of it). */
  tree?: string;
  hash: string;
  /** Done before, as the manifest records: skipped. */
  done: boolean;
}

/** The inputs the API decodes (HEIC is walked but not decoded yet: not taken). */
const IMAGE_NAME = /\.(jpe?g|png|webp|avif|gif)$/i;
/** Our own outputs and backups, never taken as inputs when walking a folder. */
const OWN_FILE = /\.(min|orig)\.(jpe?g|png|webp|avif|gif)$/i;
const CANONICAL_EXT: Record<ImageFormat, string> = { jpeg: '.jpg', png: '.png', webp: '.webp', avif: '.avif', gif: '.gif' };
const EXT_FORMAT: Record<string, ImageFormat> = { '.jpg': 'jpeg', '.jpeg': 'jpeg', '.png': 'png', '.webp': 'webp', '.avif': 'avif', '.gif': 'gif' };

/** What `auto` answers for inputs it does not write back as themselves (decisions.md, "Inputs phones and web sites produce"). */
const AUTO_INSTEAD: Partial<Record<ImageFormat, ImageFormat[]>> = { avif: ['jpeg', 'png'], gif: ['png'] };

/** The options that decide an output's bytes, as one string for the manifest. */
export function optionsKey(args: Args): string {
  const parts = [`quality=${args.quality ?? 80}`, `format=${args.format ?? 'auto'}`];
  if (args.allowWebp) parts.push('allow-webp');
  if (args.allowAvif) parts.push('allow-avif');
  if (args.maxWidth !== undefined) parts.push(`max-width=${args.maxWidth}`);
  if (args.maxHeight !== undefined) parts.push(`max-height=${args.maxHeight}`);
  if (args.width !== undefined) parts.push(`width=${args.width}`);
  if (args.height !== undefined) parts.push(`height=${args.height}`);
  if (args.fit !== undefined) parts.push(`fit=${args.fit}`);
  if (args.gravity !== undefined) parts.push(`gravity=${args.gravity}`);
  if (args.background !== undefined) parts.push(`background=${args.background}`);
  if (args.preserve?.length) parts.push(`preserve=${args.preserve.join(',')}`);
  return parts.join(' ');
}

/** Image files under `dir`, recursively, skipping hidden folders, node_modules, `skipDir` and our own files. */
async function walk(dir: string, skipDir: string | undefined, found: string[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules' && path !== skipDir) await walk(path, skipDir, found);
    } else if (entry.isFile() && IMAGE_NAME.test(entry.name) && !OWN_FILE.test(entry.name) && !entry.name.startsWith('.')) {
      found.push(path);
    }
  }
}

/** The deepest folder that holds every root: the base that --out-dir mirrors. */
function commonBase(roots: string[]): string {
  const split = roots.map((r) => r.split(sep));
  const first = split[0]!;
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join(sep) || sep;
}

/** NAME + suffix + extension: the input's own extension when the format stays, else the format's. */
function outputName(input: string, inputFormat: ImageFormat, format: ImageFormat, suffix: string): string {
  const ext = extname(input);
  const name = basename(input, ext);
  const keepExt = format === inputFormat && EXT_FORMAT[ext.toLowerCase()] === format;
  return `${name}${suffix}${keepExt ? ext : CANONICAL_EXT[format]}`;
}

/** The formats the API may answer with for this input and these options. */
function possibleFormats(args: Args, inputFormat: ImageFormat): ImageFormat[] {
  if (args.format && args.format !== 'auto') return [args.format];
  const allowed = [...(args.allowWebp ? (['webp'] as const) : []), ...(args.allowAvif ? (['avif'] as const) : [])];
  // In place, an answer in another format is refused rather than written under the input's name.
  const instead = args.inPlace ? [] : (AUTO_INSTEAD[inputFormat] ?? []);
  return [...new Set([inputFormat, ...instead, ...allowed])];
}

/** The inputs of a run, and the folder their outputs go under: -o DIR, else the inputs' common folder. */
export interface Inputs {
  inputs: string[];
  /** The deepest folder that holds every input: the base that -o mirrors. */
  base: string;
  outputRoot: string;
}

export async function listInputs(args: Args, cwd: string): Promise<Inputs> {
  const outDir = args.outDir === undefined ? undefined : resolve(cwd, args.outDir);
  const inputs: string[] = [];
  const roots: string[] = [];
  for (const path of args.paths) {
    const abs = resolve(cwd, path);
    let info;
    try {
      info = await stat(abs);
    } catch {
      throw new UsageError(`No such file or folder: ${shown(path)}`);
    }
    if (info.isDirectory()) {
      roots.push(abs);
      await walk(abs, outDir, inputs);
    } else {
      roots.push(dirname(abs));
      inputs.push(abs);
    }
  }
  const base = commonBase(roots);
  return { inputs: [...new Set(inputs)], base, outputRoot: outDir ?? base };
}

/**
 * Every input with its outputs, checked before anything is sent: each is pre-checked and hashed, the
 * manifest says which are done and which the API refused before, and outputs that collide (two inputs,
 * one output; an output that is an input), exist already without --force or would land outside the -o
 * folder stop the run with a UsageError listing them all.
 */
export async function makePlan(args: Args, cwd: string, { inputs, base, outputRoot }: Inputs, manifest: Manifest, signal: AbortSignal): Promise<Job[]> {
  const options = optionsKey(args);
  const outDir = args.outDir === undefined ? undefined : outputRoot;
  const jobs: Job[] = [];
  for (const input of inputs) {
    signal.throwIfAborted();
    const blob = await fileBlob(input);
    const job: Job = { input, display: relative(cwd, input) || input, size: blob.size, outputs: {}, hash: '', done: false, tree: outDir };
    jobs.push(job);
    try {
      job.format = await checkImage(blob);
    } catch (err) {
      if (!isSqueezeError(err)) throw err;
      job.problem = { code: err.code, message: err.message };
      continue;
    }
    for (const format of possibleFormats(args, job.format)) {
      job.outputs[format] = args.inPlace
        ? input
        : outDir !== undefined
          ? join(outDir, relative(base, dirname(input)), outputName(input, job.format, format, ''))
          : join(dirname(input), outputName(input, job.format, format, '.min'));
    }
    if (args.backup) job.backup = join(dirname(input), outputName(input, job.format, job.format, '.orig'));
    job.hash = (await hashFile(input))!;
    const outputs = Object.values(job.outputs);
    for (const output of outputs) {
      if (await manifest.isDone(input, job.hash, options, output)) job.done = true;
    }
    const refusal = job.done || args.force ? undefined : manifest.refusal(input, job.hash, options);
    if (refusal) {
      job.problem = { code: refusal.code, message: `refused before: ${refusal.message} Not sent again until the file or the options change (--force sends it).` };
    }
  }
  // `check` writes nothing: only a run that would write needs its outputs free.
  if (args.command === 'compress') await checkCollisions(jobs, args, cwd, manifest);
  return jobs;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function checkCollisions(jobs: Job[], args: Args, cwd: string, manifest: Manifest): Promise<void> {
  const show = (path: string) => shown(relative(cwd, path) || path);
  const problems: string[] = [];
  const inputs = new Set(jobs.map((j) => j.input));
  const claimed = new Map<string, Job>();
  for (const job of jobs) {
    const display = shown(job.display);
    for (const output of new Set(Object.values(job.outputs))) {
      const other = claimed.get(output);
      if (other) problems.push(`${shown(other.display)} and ${display} would both write ${show(output)}`);
      claimed.set(output, job);
      if (!args.inPlace && inputs.has(output)) problems.push(`${display} would overwrite the input ${show(output)}`);
      // An existing file is in the way unless it is this input's own earlier output, as the manifest recorded it.
      if (!args.inPlace && !job.done && !args.force && (await exists(output)) && !(await manifest.wrote(job.input, output))) {
        problems.push(`${show(output)} exists (from ${display}); --force overwrites it`);
      }
      if (job.tree !== undefined && !(await staysInside(output, job.tree))) {
        problems.push(`${show(output)} is in a folder that leads outside ${show(job.tree)} (a symbolic link)`);
      }
    }
    if (job.backup && !job.done && !args.force && (await exists(job.backup))) {
      problems.push(`the backup ${show(job.backup)} exists; --force overwrites it`);
    }
  }
  if (problems.length) {
    throw new UsageError(`Nothing was sent: ${problems.length} output${problems.length > 1 ? 's' : ''} would collide or overwrite:\n  ${problems.join('\n  ')}`);
  }
}
