// The large test photos, from the corpus's 24 MP photo bryce.webp (11158x2156): decoded by
// dwebp, re-encoded by cjpeg/pnmtopng, and upscaled by netpbm to 48 MP. Cached in bench/.cache.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { timeShell } from './tools.mjs';

export function largeImages(cache, corpus) {
  mkdirSync(cache, { recursive: true });
  const source = join(corpus, 'webp/bryce.webp');
  const make = (name, command) => {
    const file = join(cache, name);
    if (!existsSync(file)) timeShell(command.replaceAll('$OUT', file).replaceAll('$SRC', source).replaceAll('$C', cache));
    return file;
  };
  make('24mp.ppm', 'dwebp -quiet $SRC -ppm -o $OUT');
  make('ramp.pgm', 'pgmramp -lr 11158 2156 > $OUT');
  return {
    jpeg24: make('24mp-baseline.jpg', 'cjpeg -quality 90 $C/24mp.ppm > $OUT'),
    jpeg24progressive: make('24mp-progressive.jpg', 'cjpeg -quality 90 -progressive $C/24mp.ppm > $OUT'),
    jpeg48: make('48mp-baseline.jpg', 'pamscale -width 15780 -height 3049 $C/24mp.ppm | cjpeg -quality 80 > $OUT'),
    png24: make('24mp.png', 'pnmtopng $C/24mp.ppm > $OUT'),
    png24alpha: make('24mp-alpha.png', 'pnmtopng -alpha=$C/ramp.pgm $C/24mp.ppm > $OUT'),
  };
}
