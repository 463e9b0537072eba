import { ascii, concat } from '../bytes';

/**
 * A GIF with its comments, plain-text blocks and application extensions other than the NETSCAPE2.0 loop count
 * removed, everything else (screen, colour tables, graphic control, frames' data) copied byte for byte: the
 * "original-returned" answer's edit (decisions.md, "Inputs phones and web sites produce"). The file was walked
 * whole by header/gif-header.ts first, so every block's sub-blocks lie inside it.
 */
export function stripGif(b: Uint8Array): { bytes: Uint8Array; removed: string[] } {
  const screenFlags = b[10]!;
  let at = 13 + (screenFlags & 0x80 ? 3 * (2 << (screenFlags & 7)) : 0);
  const kept: Uint8Array[] = [b.subarray(0, at)];
  const removed = new Set<string>();
  const subBlocksEnd = (from: number) => {
    let end = from;
    while (b[end]) end += 1 + b[end]!;
    return end + 1;
  };
  while (at < b.length && b[at] !== 0x3b) {
    const start = at;
    if (b[at] === 0x2c) {
      const flags = b[at + 9]!;
      at = subBlocksEnd(at + 10 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0) + 1);
      kept.push(b.subarray(start, at));
      continue;
    }
    const label = b[at + 1]!;
    at = subBlocksEnd(at + 2);
    const loop = label === 0xff && b[start + 2] === 11 && ['NETSCAPE2.0', 'ANIMEXTS1.0'].includes(ascii(b, start + 3, 11));
    if (label === 0xf9 || loop) kept.push(b.subarray(start, at));
    else removed.add(label === 0xfe ? 'comment' : label === 0xff ? 'application' : label === 0x01 ? 'plain text' : 'extension');
  }
  kept.push(Uint8Array.of(0x3b));
  return { bytes: concat(kept), removed: [...removed] };
}
