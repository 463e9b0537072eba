import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkApiKey, Squeeze } from '@squeeze-edge/client';
import type { Args } from './args.js';
import { UsageError } from './exit-codes.js';
import { shown } from './terminal-text.js';

export type Env = Record<string, string | undefined>;

/** The key file read when neither SQUEEZE_API_KEY nor a key file is named. */
export function defaultKeyFile(env: Env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'squeeze', 'api-key');
}

/** A key shaped as the API's are, or a UsageError saying where the wrong value came from (never the value). */
function checkedKey(key: string, source: string): string {
  try {
    return checkApiKey(key);
  } catch (err) {
    throw new UsageError(`${(err as Error).message} (from ${source})`);
  }
}

/** The API key: --key-file, else $SQUEEZE_API_KEY, else $SQUEEZE_API_KEY_FILE, else the default key file. */
async function readKey(args: Args, env: Env, cwd: string): Promise<string> {
  if (args.keyFile === undefined && env.SQUEEZE_API_KEY?.trim()) return checkedKey(env.SQUEEZE_API_KEY, '$SQUEEZE_API_KEY');
  const named = args.keyFile ?? env.SQUEEZE_API_KEY_FILE;
  const file = resolve(cwd, named ?? defaultKeyFile(env));
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if (named === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UsageError(`No API key: set SQUEEZE_API_KEY, or put the key in ${shown(file)} (or name a file with --key-file).`);
    }
    throw new UsageError(`Cannot read the key file ${shown(file)}: ${shown((err as Error).message)}`);
  }
  if (!key) throw new UsageError(`The key file ${shown(file)} is empty.`);
  return checkedKey(key, `the key file ${shown(file)}`);
}

/** The client for this run: key and endpoint from the flags and the environment; a UsageError says what is missing. */
export async function makeClient(args: Args, env: Env, cwd: string): Promise<Squeeze> {
  const baseUrl = args.baseUrl ?? env.SQUEEZE_BASE_URL;
  if (!baseUrl) throw new UsageError('No endpoint: set SQUEEZE_BASE_URL (or --base-url) to the API, e.g. https://squeeze.example.workers.dev');
  const apiKey = await readKey(args, env, cwd);
  try {
    return new Squeeze({ apiKey, baseUrl, userAgent: 'squeeze-cli' });
  } catch (err) {
    throw new UsageError(shown((err as Error).message));
  }
}
