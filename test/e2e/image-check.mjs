// Is a downloaded file really an image? Its signature must match its format, and Chromium must decode it.

const SIGNATURES = {
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  png: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  // An ISO-BMFF file whose first box is ftyp with AVIF's major brand (the demo answers AVIF to a browser that takes it).
  avif: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && b.subarray(8, 12).toString('latin1') === 'avif',
};

export function formatOf(bytes) {
  return Object.keys(SIGNATURES).find((format) => SIGNATURES[format](bytes)) ?? null;
}

/** Width and height as Chromium decodes the bytes (createImageBitmap rejects what it cannot decode). */
export function decodeInPage(page, bytes) {
  return page.evaluate(async (base64) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([data]));
    return { width: bitmap.width, height: bitmap.height };
  }, bytes.toString('base64'));
}
