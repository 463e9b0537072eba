import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, sep } from 'node:path';

/** The deepest existing folder of `folder` or its parents, with symbolic links resolved. */
async function realFolder(folder: string): Promise<string> {
  for (let dir = folder; ; dir = dirname(dir)) {
    try {
      return await realpath(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dir === dirname(dir)) throw err;
    }
  }
}

/** Whether `path` is `folder` or inside it (by name: no link is resolved). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return !isAbsolute(rel) && rel.split(sep)[0] !== '..';
}

/**
 * Whether `output` would really be written inside the folder `root`: its deepest existing folder, with
 * symbolic links resolved, is `root`'s own or below it (a folder inside `root` that is a link to somewhere
 * else is not). The folders still missing are made by the write, as real folders inside that one.
 */
export async function staysInside(output: string, root: string): Promise<boolean> {
  return isWithin(await realFolder(dirname(output)), await realFolder(root));
}
