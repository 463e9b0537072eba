import { cat } from '../container/synth';
import { zlibStored } from './png';

/**
 * A deflate bit writer (RFC 1951 3.1.1): `bits` sends a value least significant bit first, `code` a
 * Huffman code most significant bit first; `flush` pads the last byte.
 */
export function deflateBits() {
  const bytes: number[] = [];
  let acc = 0;
  let count = 0;
  const bits = (value: number, n: number) => {
    for (let i = 0; i < n; i++) {
      acc |= ((value >> i) & 1) << count;
      if (++count === 8) (bytes.push(acc), (acc = 0), (count = 0));
    }
  };
  const code = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits((value >> i) & 1, 1);
  };
  const flush = () => {
    if (count) (bytes.push(acc), (acc = 0), (count = 0));
  };
  return { bytes, bits, code, flush, pendingBits: () => count };
}

/**
 * Deflate streams that make an inflater work without producing output (issue 35 item 1): empty
 * dynamic-Huffman blocks. Each block (RFC 1951 3.2.7) declares 257 literal/length codes and one
 * distance code, sends the code-length code lengths for 18 of the 19 symbols, then codes 256 zeros (two
 * repeats of symbol 18), a length of 1 for the end-of-block symbol and no distance code, and ends at once:
 * zlib reads the lengths and builds its tables for every one, and none has a byte of output. 92 bits a
 * block, so 8 blocks are exactly 92 bytes.
 */
const EMPTY_BLOCKS_PER_UNIT = 8;
const EMPTY_BLOCK_UNIT = (() => {
  const { bytes, bits, code, pendingBits } = deflateBits();
  // The code-length code: symbol 18 is '0' (1 bit), 0 is '10', 1 is '11' (canonical order by length, then symbol).
  const clcLengths: Record<number, number> = { 18: 1, 0: 2, 1: 2 };
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  for (let b = 0; b < EMPTY_BLOCKS_PER_UNIT; b++) {
    bits(0, 1); // not the final block
    bits(2, 2); // dynamic Huffman
    bits(0, 5); // HLIT: 257
    bits(0, 5); // HDIST: 1
    bits(14, 4); // HCLEN: 18 code-length code lengths, up to symbol 1's place
    for (const symbol of order.slice(0, 18)) bits(clcLengths[symbol] ?? 0, 3);
    code(0, 1), bits(138 - 11, 7); // 138 zeros
    code(0, 1), bits(118 - 11, 7); // 118 zeros: literals 0 to 255 unused
    code(3, 2); // end of block: length 1
    code(2, 2); // the distance code: unused
    code(0, 1); // the end-of-block symbol's one-bit code
  }
  if (pendingBits() !== 0) throw new Error('the unit is not whole bytes');
  return Uint8Array.from(bytes);
})();

/** About how many bytes `blocks` empty blocks take. */
export const EMPTY_BLOCK_BYTES = EMPTY_BLOCK_UNIT.length / EMPTY_BLOCKS_PER_UNIT;

/** Raw deflate data of at least `blocks` empty blocks (a whole number of 8), not final. */
export function emptyBlocks(blocks: number): Uint8Array {
  const units = Math.ceil(blocks / EMPTY_BLOCKS_PER_UNIT);
  const out = new Uint8Array(units * EMPTY_BLOCK_UNIT.length);
  for (let i = 0; i < units; i++) out.set(EMPTY_BLOCK_UNIT, i * EMPTY_BLOCK_UNIT.length);
  return out;
}

/**
 * zlib data of `data`, its blocks led by `blocks` empty ones: the zlib header, the empty blocks, then
 * `data` in stored blocks and its Adler-32, so any inflater reads it as `data`.
 */
export function zlibAfterEmptyBlocks(data: Uint8Array, blocks: number): Uint8Array {
  const stored = zlibStored(data);
  return cat(stored.subarray(0, 2), emptyBlocks(blocks), stored.subarray(2));
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];

/**
 * Writes a fixed-Huffman block (after its BFINAL bit) of `length` zero bytes: a literal 0, then copies of up to
 * 258 bytes at distance 1, so hundreds of MB cost a few bytes each 258.
 */
export function fixedZeros({ bits, code }: ReturnType<typeof deflateBits>, length: number): void {
  const fixedLiteral = (symbol: number) => (symbol < 144 ? code(0x30 + symbol, 8) : symbol < 256 ? code(0x190 + symbol - 144, 9) : symbol < 280 ? code(symbol - 256, 7) : code(0xc0 + symbol - 280, 8));
  bits(1, 2); // fixed Huffman
  let left = length;
  if (left > 0) (fixedLiteral(0), left--);
  while (left >= 3) {
    const run = Math.min(258, left);
    const i = LENGTH_BASE.findLastIndex((base) => base <= run);
    const used = i === 28 ? 258 : Math.min(run, LENGTH_BASE[i]! + (1 << LENGTH_EXTRA[i]!) - 1);
    fixedLiteral(257 + i);
    bits(used - LENGTH_BASE[i]!, LENGTH_EXTRA[i]!);
    code(0, 5); // distance 1
    left -= used;
  }
  for (; left > 0; left--) fixedLiteral(0);
  fixedLiteral(256);
}

/** The Adler-32 of `length` zero bytes, as zlib's trailer (big-endian). */
export function zerosAdler(length: number): Uint8Array {
  const adler = (((length % 65521) << 16) | 1) >>> 0;
  return Uint8Array.of(adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff);
}

/**
 * zlib data that inflates `zeros` zero bytes at once, then holds `blocks` empty blocks and ends with no more
 * output (a valid stream): output first, so that the input read never passes twice the output (bounded-inflate.ts's
 * rule for empty blocks), yet all of it is work without output.
 */
export function zlibZerosThenEmptyBlocks(zeros: number, blocks: number): Uint8Array {
  const writer = deflateBits();
  writer.bytes.push(0x78, 0x01);
  writer.bits(0, 1); // not the final block
  fixedZeros(writer, zeros);
  // An empty stored block ends on a byte, where the empty blocks begin; a final empty stored block ends the stream.
  writer.bits(0, 3);
  writer.flush();
  writer.bytes.push(0, 0, 0xff, 0xff);
  return cat(Uint8Array.from(writer.bytes), emptyBlocks(blocks), Uint8Array.of(1, 0, 0, 0xff, 0xff), zerosAdler(zeros));
}
