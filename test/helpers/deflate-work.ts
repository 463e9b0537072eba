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
