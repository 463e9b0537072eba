/**
 * A lossy WebP's quality as libwebp's `-q` (1 to 100), read from its VP8 key frame's header (RFC 6386 9.2 to 9.6):
 * the quantiser index of each segment (or of the frame, without segments), mapped back through libwebp's own curve
 * (src/enc/quant_enc.c, VP8SetSegmentParams: q = 127 (1 - c^(1/3)), c = 2/3 Q under Q = 0.75, else 2Q - 1). Its
 * spatial noise shaping moves each segment's exponent either side of 1/3, so the segments are averaged as log(1 - q/127),
 * where that spread cancels. 0 when the partition is too short to hold the header. No pixel is decoded.
 */
export function vp8Quality(frame: Uint8Array): number {
  // The frame tag (3 bytes), the start code and the sizes (7): the first partition follows.
  if (frame.length < 12) return 0;
  const bits = boolDecoder(frame.subarray(10));
  const flag = () => bits.literal(1) === 1;
  const signed = (n: number) => {
    const magnitude = bits.literal(n);
    return flag() ? -magnitude : magnitude;
  };
  const skipUpdates = (count: number, n: number) => {
    for (let i = 0; i < count; i++) if (flag()) signed(n);
  };
  bits.literal(2); // colour space, clamping type
  let segments: number[] | undefined;
  let absolute = false;
  if (flag()) {
    const updateMap = flag();
    if (flag()) {
      absolute = flag();
      segments = [0, 1, 2, 3].map(() => (flag() ? signed(7) : 0));
      skipUpdates(4, 6); // each segment's loop filter level
    }
    if (updateMap) for (let i = 0; i < 3; i++) if (flag()) bits.literal(8);
  }
  bits.literal(1 + 6 + 3); // filter type, level, sharpness
  if (flag() && flag()) skipUpdates(8, 6); // loop filter deltas of the reference frames and modes
  bits.literal(2); // DCT partitions
  const base = bits.literal(7);
  const indices = (segments ?? [base]).map((q) => Math.min(127, Math.max(0, absolute || !segments ? q : base + q)));
  const c = Math.exp(indices.reduce((sum, q) => sum + Math.log(Math.max(1e-6, 1 - q / 127)), 0) / indices.length) ** 3;
  const quality = c < 0.5 ? 1.5 * c : (c + 1) / 2;
  return Math.min(100, Math.max(1, Math.round(100 * quality)));
}

/** RFC 6386 7.3's boolean decoder; past the end of the data it reads zeros, as libvpx does. */
function boolDecoder(data: Uint8Array) {
  let at = 0;
  const next = () => (at < data.length ? data[at++]! : 0);
  let value = (next() << 8) | next();
  let range = 255;
  let bitCount = 0;
  const bool = (probability: number) => {
    const split = 1 + (((range - 1) * probability) >> 8);
    const big = split << 8;
    let bit = 0;
    if (value >= big) {
      bit = 1;
      range -= split;
      value -= big;
    } else range = split;
    while (range < 128) {
      value <<= 1;
      range <<= 1;
      if (++bitCount === 8) {
        bitCount = 0;
        value |= next();
      }
    }
    return bit;
  };
  return {
    literal(n: number) {
      let v = 0;
      for (let i = 0; i < n; i++) v = (v << 1) | bool(128);
      return v;
    },
  };
}
