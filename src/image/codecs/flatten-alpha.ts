/** Composites RGBA pixels onto white, in place: JPEG has no alpha, and black is what users complain of. */
export function flattenOntoWhite(image: ImageData): ImageData {
  const px = image.data;
  for (let i = 0; i < px.length; i += 4) {
    const a = px[i + 3]!;
    if (a === 255) continue;
    const white = 255 * (255 - a);
    px[i] = Math.round((px[i]! * a + white) / 255);
    px[i + 1] = Math.round((px[i + 1]! * a + white) / 255);
    px[i + 2] = Math.round((px[i + 2]! * a + white) / 255);
    px[i + 3] = 255;
  }
  return image;
}
