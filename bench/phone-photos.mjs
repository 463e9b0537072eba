// Phone-like photos made from the corpus photos, for calibrating and checking the engine's output bound
// (bench/output-bound.mjs): each source scaled to a phone's size, as it is, with sensor-like grain, and
// dark with grain (a night shot), plus a smooth gradient (a sky), then written as a phone or an exporter
// writes them: baseline 4:2:0 JPEG at phone qualities (92, 95), progressive 4:2:0 JPEG, RGB PNG, lossy
// WebP, and a baseline JPEG at 40 (a photo a website already squeezed). Files over the 10 MB upload limit are left out: no one can send them. Cached under bench/.cache.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { timeShell } from './tools.mjs';

const UPLOAD_LIMIT = 10 * 1_048_576;

export const SOURCES = [
  'photos/plasma-Autumn-2560x1600.jpg',
  'photos/plasma-ColorfulCups-2560x1600.jpg',
  'photos/plasma-Kite-2560x1600.jpg',
  'photos/skimage-astronaut.png',
  'photos/skimage-chelsea.png',
  'photos/skimage-coffee.png',
  'photos/skimage-hubble_deep_field.jpg',
  'photos/skimage-motorcycle_left.png',
  'photos/skimage-retina.jpg',
  'photos/skimage-rocket.jpg',
];

/** Kept aside: never looked at while the bound was tuned, then used to confirm it. */
export const HOLDOUT = new Set(['plasma-Kite-2560x1600', 'skimage-coffee', 'skimage-rocket']);

/**
 * Grain is uniform noise laid over the photo at a few percent (pamcomp; Debian's pamaddnoise adds far more
 * than its options say): 5 % makes a 6 MP baseline JPEG at q92 0.3 B/px, a phone photo's density.
 */
const LOOKS = {
  plain: '',
  grain: '| pamcomp -opacity 0.05 $NOISE',
  night: '| pamfunc -multiplier 0.3 | pamcomp -opacity 0.04 $NOISE',
};

const ENCODINGS = {
  'baseline JPEG q92': ['jpg', 'cjpeg -quality 92 -sample 2x2'],
  'baseline JPEG q95': ['jpg', 'cjpeg -quality 95 -sample 2x2'],
  'progressive 4:2:0 JPEG q90': ['jpg', 'cjpeg -quality 90 -sample 2x2 -progressive'],
  // A photo already squeezed by a website or a messenger, sent again.
  'baseline JPEG q40': ['jpg', 'cjpeg -quality 40 -sample 2x2'],
  'RGB PNG': ['png', 'pnmtopng'],
  'lossy WebP q85': ['webp', 'cwebp -quiet -q 85 -o $OUT -- -'],
};

/** The size of a 3:2 photo of `megapixels`. */
export function photoSize(megapixels) {
  const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.5) / 16) * 16;
  return { width, height: Math.round((width / 1.5) / 16) * 16 };
}

/**
 * The set at `megapixels`: [{ file, name, source, look, encoding, holdout }], made once (netpbm, libjpeg-turbo,
 * libwebp from Debian) and cached.
 */
export function phonePhotos(cache, corpus, megapixels) {
  const { width, height } = photoSize(megapixels);
  const dir = join(cache, `phone-${megapixels}mp`);
  mkdirSync(dir, { recursive: true });
  const decode = (file) => (file.endsWith('.png') ? `pngtopnm ${file}` : `djpeg ${file}`);
  const scaled = [
    ...SOURCES.map((source) => [basename(source).replace(/\.[a-z]+$/, ''), `${decode(join(corpus, source))} | pamscale -xsize ${width} -ysize ${height}`]),
    // A smooth sky: a diagonal ramp tinted blue, with faint grain.
    ['gradient', `pgmramp -diagonal ${width} ${height} | pgmtoppm rgb:30/60/c0-rgb:d0/e8/ff | pamcomp -opacity 0.01 $NOISE`],
  ];
  const noise = join(dir, 'noise.ppm');
  if (!existsSync(noise)) {
    const planes = [1, 2, 3].map((seed) => join(dir, `noise-${seed}.pgm`));
    planes.forEach((plane, i) => timeShell(`pgmnoise -randomseed ${i + 1} ${width} ${height} > ${plane}`));
    timeShell(`rgb3toppm ${planes.join(' ')} > ${noise}`);
  }
  const photos = [];
  for (const [name, pipeline] of scaled) {
    for (const [look, filter] of Object.entries(LOOKS)) {
      if (name === 'gradient' && look !== 'plain') continue;
      const ppm = join(dir, `${name}-${look}.ppm`);
      for (const [encoding, [ext, command]] of Object.entries(ENCODINGS)) {
        const file = join(dir, `${name}-${look}-${encoding.replace(/[^a-z0-9]+/gi, '-')}.${ext}`);
        if (!existsSync(file)) {
          if (!existsSync(ppm)) timeShell(`${pipeline} ${filter} > ${ppm}`.replaceAll('$NOISE', noise));
          timeShell(command.includes('$OUT') ? `${command.replace('$OUT', file)} < ${ppm}` : `${command} < ${ppm} > ${file}`);
        }
        if (statSync(file).size > UPLOAD_LIMIT) continue;
        photos.push({ file, name, source: name, look, encoding, holdout: HOLDOUT.has(name) });
      }
    }
  }
  return photos;
}
