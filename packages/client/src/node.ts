// Node-only helpers (node:fs), kept out of the main entry point so that it runs on every platform.
import { randomBytes } from 'node:crypto';
import { constants, openAsBlob } from 'node:fs';
import { copyFile, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CompressOptions, CompressResult, Squeeze } from './client.js';

/** A Blob backed by the file: uploads stream from disk, and can be sent again on retry. */
export function fileBlob(path: string): Promise<Blob> {
  return openAsBlob(path);
}

/** Temporary files being written, so that an interrupted program can remove them (removeTempFiles). */
const pending = new Set<string>();

/** The temporary name of a file being written: hidden, beside it, recognisable. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.squeeze-tmp`);
}

/**
 * Makes `path` atomically: `fill` writes a temporary file in the same folder, which is then renamed over
 * `path`. A reader sees the old file or the new one, never a part; an interrupted write leaves the old file
 * as it was (and at worst a `.squeeze-tmp` file, which removeTempFiles deletes).
 */
async function replaceAtomically(path: string, fill: (temp: string) => Promise<void>): Promise<void> {
  const temp = tempPathFor(path);
  pending.add(temp);
  try {
    await fill(temp);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  } finally {
    pending.delete(temp);
  }
}

/**
 * A file that replaces `path` gets its mode, and its owner where the process may give it (as root, or
 * the group among the owner's own): replacing a 0600 file never leaves a 0644 one.
 */
async function keepOwnerAndMode(handle: FileHandle, path: string): Promise<void> {
  let old;
  try {
    old = await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  // chown first: it may clear the set-user-ID and set-group-ID bits that chmod then puts back.
  await handle.chown(old.uid, old.gid).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPERM' && err.code !== 'ENOTSUP') throw err;
  });
  await handle.chmod(old.mode & 0o7777);
}

/** Writes `data` to `path` atomically, flushed to disk before the rename; a replaced file keeps its mode (and owner where it can). */
export function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  return replaceAtomically(path, async (temp) => {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await keepOwnerAndMode(handle, path);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

/** Copies `from` to `to` atomically (a backup is never half-written). */
export function copyFileAtomic(from: string, to: string): Promise<void> {
  return replaceAtomically(to, (temp) => copyFile(from, temp, constants.COPYFILE_EXCL));
}

/** Removes the temporary files of writes still in progress (for a signal handler about to exit). */
export async function removeTempFiles(): Promise<void> {
  await Promise.all([...pending].map((temp) => rm(temp, { force: true })));
}

/** Compresses the file at `input` (streamed from disk) and, when `output` is given, writes the result there atomically. */
export async function compressFile(client: Squeeze, input: string, output?: string, options?: CompressOptions): Promise<CompressResult> {
  const result = await client.compress(await fileBlob(input), options);
  if (output !== undefined) await writeFileAtomic(output, result.image);
  return result;
}
