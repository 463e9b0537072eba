import { nextTurn } from '../next-turn';
import { concat } from './bytes';

/** Input handed to the inflater at a time: a zlib bomb's piece inflates to at most about 1 MiB (1032:1). */
const PIECE_BYTES = 1024;
/** The event loop is handed back after every this much input: at most a few ms of inflating, even of empty blocks. */
const HAND_BACK_BYTES = 64 * 1024;
/**
 * Data that keeps the inflater working without output (empty blocks: issue 35): once the input read
 * passes twice the output and this much, the stream is not data worth reading. Real zlib data inflates
 * to about its size or more (stored blocks: 5 bytes a 65,535 less).
 */
const SPARSE_SLACK_BYTES = 64 * 1024;

/** The output, or why there is none; `readBytes`: the input handed to the inflater. */
export type Inflated = ({ bytes: Uint8Array; why?: undefined } | { bytes: null; why: 'larger' | 'sparse' | 'corrupt' }) & { readBytes: number };

/**
 * zlib data inflated in small steps, with both its output and its work bounded: it stops once the output
 * passes `maxBytes` (`larger`), or the input read says the stream makes work without output (`sparse`),
 * and hands the event loop back as it goes, so neither a bomb's memory nor an empty-block stream's CPU
 * is ever held at once.
 */
export async function inflateBounded(data: Uint8Array, maxBytes: number): Promise<Inflated> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  let inflated = 0;
  let readBytes = 0;
  let stopped: 'larger' | 'sparse' | 'corrupt' | undefined;
  const stop = async (why: 'larger' | 'sparse') => {
    stopped ??= why;
    await reader.cancel().catch(() => undefined);
  };
  // Errors surface on the readable side: the feed's only need to not go unhandled.
  const feeding = (async () => {
    for (let at = 0; at < data.length && !stopped; at += PIECE_BYTES) {
      if (at > 2 * inflated + SPARSE_SLACK_BYTES) return stop('sparse');
      if (at > 0 && at % HAND_BACK_BYTES === 0) await nextTurn();
      readBytes = Math.min(data.length, at + PIECE_BYTES);
      await writer.write(data.subarray(at, readBytes));
    }
    if (!stopped) await writer.close();
  })().catch(() => undefined);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      inflated += value.length;
      if (inflated > maxBytes) {
        await stop('larger');
        break;
      }
      parts.push(value);
    }
  } catch {
    // A read pending when the feed stopped the stream may fail rather than end.
    stopped ??= 'corrupt';
    await writer.abort().catch(() => undefined);
  }
  await feeding;
  return stopped ? { bytes: null, why: stopped, readBytes } : { bytes: concat(parts), readBytes };
}
