// The smart-crop section of npm run bench (issue 37): gravity=auto beside sharp's strategy.attention on photos of
// the corpus with their subjects marked by hand (below), each cut to boxes of other shapes; a cut keeps the subject
// when the centre of its marked box lies inside the window. The rules of codecs/src/attention.c were chosen on the
// synthetic scenes of test/api/geometry.test.ts before any of these photos was looked at: every photo is held out.
// Photos without one subject (ColorfulCups, a pattern; hubble_deep_field, a star field; retina) are not marked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

sharp.concurrency(1);

/** Subject boxes [left, top, width, height] in the photo's pixels, marked on 320-pixel previews. */
export const MARKED = [
  ['skimage-astronaut.png', 'her face', [176, 24, 104, 128]],
  ['skimage-coffee.png', 'the cup', [178, 19, 234, 281]],
  ['skimage-motorcycle_left.png', 'the motorcycle', [93, 127, 590, 324]],
  ['skimage-rocket.jpg', 'the rocket', [300, 130, 40, 280]],
  ['skimage-chelsea.png', "the cat's eyes", [134, 78, 219, 85]],
  ['plasma-Kite-2560x1600.jpg', 'the kite', [1640, 480, 184, 176]],
  ['plasma-Autumn-2560x1600.jpg', 'the girl', [720, 1200, 120, 256]],
];

/** The boxes each photo is cut to: a square, and the other orientation at 1:2 (a square photo: 1:2 and 2:1). */
const boxes = (width, height) => (width === height ? [[200, 100], [100, 200]] : width > height ? [[200, 200], [100, 200]] : [[200, 200], [200, 100]]);

const holds = (window, [left, top, width, height]) => {
  const x = left + width / 2;
  const y = top + height / 2;
  return x >= window.left && x < window.left + window.width && y >= window.top && y < window.top + window.height;
};

export async function smartCropTable(current, corpus) {
  const rows = ['| photo | subject | box | ours: window, kept | sharp attention: window, kept |', '|---|---|---|---|---|'];
  let ours = 0;
  let theirs = 0;
  let cuts = 0;
  for (const [name, subject, mark] of MARKED) {
    const input = new Uint8Array(readFileSync(join(corpus, 'photos', name)));
    const header = current.readHeader(input);
    for (const [width, height] of boxes(header.width, header.height)) {
      const result = await current.compressImage(input, { quality: 80, format: 'jpeg', width, height, fit: 'cover', gravity: 'auto', acceptsWebp: false, cpuBudgetMs: Infinity });
      const { info } = await sharp(input).resize(width, height, { fit: 'cover', position: sharp.strategy.attention }).toBuffer({ resolveWithObject: true });
      const scale = Math.max(width / header.width, height / header.height);
      const window = result.crop;
      const sharpWindow = { left: Math.round(-info.cropOffsetLeft / scale), top: Math.round(-info.cropOffsetTop / scale), width: Math.round(width / scale), height: Math.round(height / scale) };
      const a = holds(window, mark);
      const b = holds(sharpWindow, mark);
      ours += a ? 1 : 0;
      theirs += b ? 1 : 0;
      cuts++;
      const show = (w, kept) => `${w.left},${w.top},${w.width},${w.height}: ${kept ? 'yes' : 'no'}`;
      rows.push(`| ${name} | ${subject} | ${width}x${height} | ${show(window, a)} | ${show(sharpWindow, b)} |`);
    }
  }
  rows.push('', `Subject kept: ours ${ours} of ${cuts} cuts, sharp's attention ${theirs} of ${cuts}.`);
  return rows;
}
