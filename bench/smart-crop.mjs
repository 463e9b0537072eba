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

/**
 * A blurred colourful object beside the sharp subject (issue 37), laid over the photo inside a feathered ellipse
 * (the kind of scene where saturation draws a cut off the subject). `blurred` (the tuning set): a region of
 * ColorfulCups, blurred with sigma 3 % of the photo's longer side, 0.42 x 0.7 of the photo, over the half away from the
 * marked subject along its longer side (the square astronaut, along its height). `heldOut` (kept aside while
 * attention.c was tuned on `blurred`, run once after): the wide-gamut corpus' R2020 colour bars, sigma 2 %, smaller
 * (0.3 x 0.5), laid right next to the subject's box on its roomier side.
 */
const OVERLAYS = {
  blurred: { source: ['photos', 'plasma-ColorfulCups-2560x1600.jpg'], region: { left: 900, top: 500, width: 900, height: 700 }, sigma: 0.03, size: [0.42, 0.7], beside: false },
  heldOut: { source: ['wide-gamut', 'R2020-sRGB-color-bars.png'], region: null, sigma: 0.02, size: [0.3, 0.5], beside: true },
};

async function withBlurredColour(corpus, input, [left, top, width, height], { source, region, sigma: share, size, beside }) {
  const { width: w, height: h } = await sharp(input).metadata();
  const alongX = w > h;
  const [along, across] = alongX ? [w, h] : [h, w];
  const long = Math.round(along * size[0]);
  const short = Math.round(across * size[1]);
  const [start, extent] = alongX ? [left, width] : [top, height];
  const nearStart = start + extent / 2 < along / 2;
  // Away from the subject: at the far end. Beside it: touching its box on the side with more room, kept inside.
  const far = nearStart ? along - long : 0;
  const next = Math.min(Math.max(nearStart ? start + extent : start - long, 0), along - long);
  const at = beside ? next : far;
  const blob = alongX ? { width: long, height: short } : { width: short, height: long };
  const offset = alongX ? { left: at, top: Math.round((h - short) / 2) } : { left: Math.round((w - short) / 2), top: at };
  const sigma = Math.max(w, h) * share;
  const picked = sharp(join(corpus, ...source)).flatten({ background: '#808080' });
  const colour = await (region ? picked.extract(region) : picked).resize(blob.width, blob.height, { fit: 'fill' }).blur(sigma).removeAlpha().raw().toBuffer();
  const ellipse = `<svg width="${blob.width}" height="${blob.height}"><ellipse cx="${blob.width / 2}" cy="${blob.height / 2}" rx="${blob.width * 0.4}" ry="${blob.height * 0.4}" fill="#fff"/></svg>`;
  const mask = await sharp(Buffer.from(ellipse)).blur(sigma).extractChannel(0).raw().toBuffer();
  const rgba = await sharp(colour, { raw: { ...blob, channels: 3 } }).joinChannel(mask, { raw: { ...blob, channels: 1 } }).png().toBuffer();
  return new Uint8Array(await sharp(input).removeAlpha().composite([{ input: rgba, ...offset }]).png().toBuffer());
}

export async function smartCropTable(current, corpus) {
  const plain = MARKED.map(([name, subject, mark]) => [name, subject, mark, (input) => input]);
  const overlaid = (set, label) => MARKED.map(([name, subject, mark]) => [`${name} + ${label}`, subject, mark, (input) => withBlurredColour(corpus, input, mark, OVERLAYS[set])]);
  return [
    ...(await cutsTable(current, corpus, plain)),
    '',
    'The same photos with a blurred colourful object laid beside the subject (bench/smart-crop.mjs, `OVERLAYS.blurred`):',
    '',
    ...(await cutsTable(current, corpus, overlaid('blurred', 'blurred colour'))),
    '',
    'Held out: smaller blurred colour bars laid next to the subject (`OVERLAYS.heldOut`), not run while attention.c was tuned:',
    '',
    ...(await cutsTable(current, corpus, overlaid('heldOut', 'blurred bars'))),
  ];
}

async function cutsTable(current, corpus, photos) {
  const rows = ['| photo | subject | box | ours: window, kept | sharp attention: window, kept |', '|---|---|---|---|---|'];
  let ours = 0;
  let theirs = 0;
  let cuts = 0;
  for (const [name, subject, mark, make] of photos) {
    const input = await make(new Uint8Array(readFileSync(join(corpus, 'photos', name.split(' ')[0]))));
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
