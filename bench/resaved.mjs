// Photos as people send them, made from the corpus (cached in bench/.cache/resaved): JPEGs that a phone, a
// messenger or an editor already compressed, at 75 to 92, some downscaled, some saved twice. AVIF was tuned on
// the corpus photos and the first six of these; HELD_OUT were kept aside, unseen, to check the choices on.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { timeShell } from './tools.mjs';

/** name -> shell pipeline from the corpus ($C) to a PPM on stdout, and the cjpeg quality(s) it is saved at. */
const RESAVED = {
  'resaved-autumn-1600-q80.jpg': ['djpeg $C/photos/plasma-Autumn-2560x1600.jpg | pamscale -width 1600', [80]],
  'resaved-bryce-left-q90.jpg': ['dwebp -quiet $C/webp/bryce.webp -ppm -o - | pamcut -left 0 -top 300 -width 2400 -height 1600', [90]],
  'resaved-bryce-right-1600-q82.jpg': ['dwebp -quiet $C/webp/bryce.webp -ppm -o - | pamcut -left 8700 -top 200 -width 2400 -height 1600 | pamscale -width 1600', [82]],
  'resaved-cups-2048-q85.jpg': ['djpeg $C/photos/plasma-ColorfulCups-2560x1600.jpg | pamscale -width 2048', [85]],
  'resaved-hubble-twice-q85.jpg': ['djpeg $C/photos/skimage-hubble_deep_field.jpg', [85, 85]],
  'resaved-kite-1280-q75.jpg': ['djpeg $C/photos/plasma-Kite-2560x1600.jpg | pamscale -width 1280', [75]],
  'resaved-bryce-middle-q90.jpg': ['dwebp -quiet $C/webp/bryce.webp -ppm -o - | pamcut -left 4400 -top 400 -width 2400 -height 1600', [90]],
  'resaved-wood-1920-q88.jpg': ['dwebp -quiet $C/webp/gnome-wood-d.webp -ppm -o - | pamscale -width 1920', [88]],
  'resaved-coffee-twice-q78.jpg': ['pngtopnm $C/photos/skimage-coffee.png', [92, 78]],
};
export const HELD_OUT = ['resaved-bryce-middle-q90.jpg', 'resaved-wood-1920-q88.jpg', 'resaved-coffee-twice-q78.jpg'];

/** The re-saved photos' paths, made once from the corpus. */
export function resavedPhotos(cache, corpus) {
  const dir = join(cache, 'resaved');
  mkdirSync(dir, { recursive: true });
  return Object.entries(RESAVED).map(([name, [source, qualities]]) => {
    const file = join(dir, name);
    const saves = qualities.map((q) => `cjpeg -quality ${q}`).join(' | djpeg | ');
    if (!existsSync(file)) timeShell(`${source.replaceAll('$C', corpus)} | ${saves} > ${file}`);
    return file;
  });
}
