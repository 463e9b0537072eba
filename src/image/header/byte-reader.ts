/** Big- and little-endian reads that return undefined past the end instead of reading garbage. */
export function u16be(b: Uint8Array, at: number): number | undefined {
  return at + 2 <= b.length ? (b[at]! << 8) | b[at + 1]! : undefined;
}

export function u32be(b: Uint8Array, at: number): number | undefined {
  return at + 4 <= b.length ? ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) : undefined;
}

export function u24le(b: Uint8Array, at: number): number | undefined {
  return at + 3 <= b.length ? b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) : undefined;
}

export function u32le(b: Uint8Array, at: number): number | undefined {
  return at + 4 <= b.length ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000 : undefined;
}

export function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length));
}
