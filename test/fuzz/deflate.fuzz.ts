import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { compressImage } from '../../src/image/pipeline';
import type { RequestedFormat } from '../../src/image/steps/choose-formats';
import { pngChunk, text } from '../container/synth';
import { call, createKey, fixture, form } from '../helpers/api';
import { huffmanGroupsWebp, prng } from '../helpers/crafted';
import { emptyBlocks, zlibAfterEmptyBlocks } from '../helpers/deflate-work';
import { pngFile } from '../helpers/png';

/** Cases of crafted deflate streams; `FUZZ_DEFLATE_CASES=300 npm run fuzz` runs more. */
const CASES = env.FUZZ_DEFLATE_CASES ? Number(env.FUZZ_DEFLATE_CASES) : 120;
/** The longest the event loop may be held while a crafted input is read (issue 35's "Done when"). */
const HOLD_LIMIT_MS = 50;
/**
 * A case held longer is run again, up to this many runs in all, and its hold is the least of them: on a shared
 * machine a gap can be another process's (a 25 ms slice took 75 ms under a load of 5 to 8 on 2 cores), while a hold of
 * the code's own comes back every run. bench/input-work.mjs takes the fastest of its rounds for the same reason.
 */
const RUNS = 5;

const realSetTimeout = globalThis.setTimeout;

/**
 * A timer ticking beside a request: each tick is a turn of the event loop, so the longest gap between two
 * ticks is the longest the loop was held (the clock moves across the timer, in Workers too).
 */
function holdMeter() {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) realSetTimeout(tick, 1);
  };
  realSetTimeout(tick, 1);
  return () => {
    running = false;
    tick();
    return longest;
  };
}

/** `width` x `height` RGB rows of one grey level, each after its filter byte 0. */
function rgbRows(width: number, height: number, level: number): Uint8Array {
  const rows = new Uint8Array(height * (1 + 3 * width)).fill(level);
  for (let y = 0; y < height; y++) rows[y * (1 + 3 * width)] = 0;
  return rows;
}

/** A zlib stream of `data` whose stored blocks are led by `blocks` empty ones; `broken` ends it in a block of reserved type 3. */
function crafted(data: Uint8Array, blocks: number, broken: boolean): Uint8Array {
  const stream = zlibAfterEmptyBlocks(data, blocks);
  return broken ? new Uint8Array([...stream.subarray(0, 2), ...emptyBlocks(blocks), 0x07]) : stream;
}

/** A chunk of `type` whose zlib data (after a keyword and the compression byte, iTXt's flags too) is `stream`. */
function compressedChunk(type: 'iCCP' | 'zTXt' | 'iTXt', stream: Uint8Array): Uint8Array {
  const head = type === 'iTXt' ? [...text('Comment\0'), 1, 0, 0, 0] : [...text(type === 'iCCP' ? 'icc\0' : 'Comment\0'), 0];
  return pngChunk(type, new Uint8Array([...head, ...stream]));
}

/** A 132-byte RGB profile header, the smallest a profile read accepts. */
const PROFILE = (() => {
  const profile = new Uint8Array(132);
  new DataView(profile.buffer).setUint32(0, 132);
  profile.set(text('mntrRGB XYZ '), 12);
  profile.set(text('acsp'), 36);
  return profile;
})();

interface Case {
  name: string;
  input: Uint8Array;
}

/**
 * One seeded case: empty dynamic-Huffman blocks (test/helpers/deflate-work.ts) in IDAT (whole or split over
 * chunks), iCCP, zTXt or iTXt, from a few to past the header's limits, some ending in an invalid block; or a
 * lossless WebP whose header holds 65,536 Huffman groups (test/helpers/crafted.ts), at a few sizes.
 */
function deflateCase(n: number): Case {
  const random = prng(n * 2246822519 + 1);
  const int = (max: number) => Math.floor(random() * max);
  const blocks = [8, 800, 8_000, 40_000, 88_000, 96_000, 180_000, 860_000][int(8)]!;
  const broken = int(5) === 0;
  const side = [16, 64, 256][int(3)]!;
  const rows = rgbRows(side, side, int(256));
  const where = ['IDAT', 'IDAT split', 'iCCP', 'zTXt', 'iTXt', 'VP8L'][n % 6]!;
  const label = `${where}, ${blocks} blocks${broken ? ', invalid end' : ''}, ${side}x${side}`;
  switch (where) {
    case 'IDAT':
      return { name: label, input: pngFile({ width: side, height: side, colourType: 2 }, crafted(rows, blocks, broken)) };
    case 'IDAT split': {
      // The stream over IDAT chunks of a seeded size: libspng reads it piece by piece across them.
      const stream = crafted(rows, blocks, broken);
      const piece = 1 + int(70_000);
      const chunks = Array.from({ length: Math.ceil(stream.length / piece) - 1 }, (_, i) => pngChunk('IDAT', stream.subarray((i + 1) * piece, (i + 2) * piece)));
      const png = pngFile({ width: side, height: side, colourType: 2 }, stream.subarray(0, piece));
      // pngFile ends in IEND (12 bytes): the other IDAT chunks go before it.
      return { name: label, input: new Uint8Array([...png.subarray(0, png.length - 12), ...chunks.flatMap((c) => [...c]), ...png.subarray(png.length - 12)]) };
    }
    case 'iCCP':
      return { name: label, input: pngFile({ width: side, height: side, colourType: 2 }, crafted(rows, 0, false), [compressedChunk('iCCP', crafted(PROFILE, blocks, broken))]) };
    case 'zTXt':
    case 'iTXt':
      return { name: label, input: pngFile({ width: side, height: side, colourType: 2 }, crafted(rows, 0, false), [compressedChunk(where, crafted(text('a comment'), blocks, broken))]) };
    default:
      return { name: `VP8L, 65,536 Huffman groups, ${side * 4}x${side * 4}`, input: huffmanGroupsWebp(side * 4, side * 4) };
  }
}

const OUTPUTS: RequestedFormat[] = ['jpeg', 'png', 'webp', 'avif', 'auto'];

/** p50, p90 and the largest of `values`, in whole milliseconds. */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(0);
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
}

/**
 * Issue 35 item 1's "Done when": crafted deflate streams are answered 200 or a typed 4xx, never 5xx, through
 * the API (keyed and demo), and their reading (the header, the profile read, the engine's jobs) never holds the
 * event loop over 50 ms. The holds are measured beside the image pipeline, not beside the API: in the test
 * runtime D1 and the Durable Objects run on the isolate's own thread, so a timer beside a request also waits
 * for their work (an honest 8 KB JPEG's request held it 28 to 50 ms here), which in production runs elsewhere.
 */
describe('fuzz: crafted deflate streams that make work without output', () => {
  it(`reads ${CASES} of them without a hold of the event loop over ${HOLD_LIMIT_MS} ms, and answers them without a 5xx`, async () => {
    const { key } = await createKey('business');
    const outcomes: Record<string, number> = {};
    const statuses: Record<string, number> = {};
    const holds: Array<{ name: string; outcome: string; holdMs: number; bytes: number }> = [];
    const apiHolds: number[] = [];
    const firstRuns: number[] = [];
    const failures: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const { name, input } = deflateCase(n);
      const format = OUTPUTS[n % OUTPUTS.length]!;
      let outcome = 'ok';
      const runs: number[] = [];
      while (runs.length < RUNS && Math.min(...runs) > HOLD_LIMIT_MS) {
        const stop = holdMeter();
        try {
          await compressImage(input, { quality: 75, format, acceptsWebp: true, acceptsAvif: true });
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) failures.push(`${name} to ${format}: ${err}`);
          outcome = err instanceof ApiError ? err.code : String(err);
        }
        runs.push(stop());
      }
      firstRuns.push(runs[0]!);
      holds.push({ name: `${name} to ${format}`, outcome, holdMs: Math.min(...runs), bytes: input.length });
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;

      const demo = n % 7 === 3;
      const stop = holdMeter();
      const response = demo
        ? await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': `198.19.${n >> 8}.${n & 255}`, Accept: 'image/avif,image/webp' }, body: form('image', input) })
        : await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key, Accept: 'image/avif,image/webp' }, body: form('file', input, { format }) });
      const body = new Uint8Array(await response.arrayBuffer());
      apiHolds.push(stop());
      const route = demo ? 'demo' : 'keyed';
      statuses[`${route} ${response.status}`] = (statuses[`${route} ${response.status}`] ?? 0) + 1;
      if (response.status >= 500) failures.push(`${name} through the ${route} API: ${response.status}`);
      else if (response.status !== 200) expect(JSON.parse(new TextDecoder().decode(body)).error, name).toMatch(/^[a-z_]+$/);
    }
    const longest = [...holds].sort((a, b) => b.holdMs - a.holdMs);
    console.log(
      `deflate fuzz: ${CASES} cases; the pipeline: ${JSON.stringify(outcomes)}, longest hold a case ${spread(holds.map((h) => h.holdMs))} ` +
        `(first runs ${spread(firstRuns)}, ${firstRuns.filter((ms) => ms > HOLD_LIMIT_MS).length} run again); ` +
        `the longest: ${longest
          .slice(0, 5)
          .map((h) => `${h.name} (${h.bytes} bytes, ${h.outcome}) ${h.holdMs.toFixed(0)} ms`)
          .join('; ')}. Through the API: ${JSON.stringify(statuses)}, longest gap a request (D1 and objects included) ${spread(apiHolds)}`,
    );
    expect(failures).toEqual([]);
    expect(longest.filter((h) => h.holdMs > HOLD_LIMIT_MS)).toEqual([]);
    // The engine still works after them.
    const check = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture('engine/testorig.jpg'), { format: 'webp' }) });
    expect(check.status).toBe(200);
  });
});
