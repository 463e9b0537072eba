import { Readable } from 'node:stream';
import type { Squeeze } from '@squeeze-edge/client';
import { compressOptions, type Args } from '../args.js';
import { UsageError } from '../exit-codes.js';
import { formatBytes, type Output, type Reporter } from '../report.js';

/** `squeeze -`: the image on stdin is streamed to the API; the result goes to stdout. */
export async function compressStdin(args: Args, client: Squeeze, stdin: NodeJS.ReadableStream, stdout: Output, reporter: Reporter, signal: AbortSignal): Promise<void> {
  if (stdout.isTTY) throw new UsageError('squeeze - writes the image to stdout: redirect it to a file or a pipe.');
  const input = Readable.toWeb(stdin as Readable) as ReadableStream<Uint8Array>;
  const result = await client.compress(input, { ...compressOptions(args), signal });
  await new Promise<void>((resolve, reject) => stdout.write(result.image, (err) => (err ? reject(err) : resolve())));
  reporter.line(`${formatBytes(result.originalSize)} → ${formatBytes(result.compressedSize)} ${result.format} (${result.savingsPercent}% saved)`);
}
