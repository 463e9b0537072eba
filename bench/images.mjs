// The large test photos: corpus photos upscaled by netpbm with a little grain added (so they
// compress like real photos), encoded by the native tools. Cached in bench/.cache.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { timeShell } from './tools.mjs';

export function largeImages(cache, corpus) {
  mkdirSync(cache, { recursive: true });
  const source = join(corpus, 'photos/plasma-Kite-2560x1600.jpg');
  const make = (name, command) => {
    const file = join(cache, name);
    if (!existsSync(file)) timeShell(command.replaceAll('$OUT', file).replaceAll('$SRC', source).replaceAll('$C', cache));
    return file;
  };
  const grain = 'pamaddnoise -type gaussian -sigma1 3 -seed 1';
  make('24mp.ppm', `djpeg $SRC | pamscale -width 6000 -height 4000 | ${grain} > $OUT`);
  make('48mp.ppm', `djpeg $SRC | pamscale -width 8490 -height 5660 | ${grain} > $OUT`);
  make('ramp.pgm', 'pgmramp -lr 6000 4000 > $OUT');
  return {
    jpeg24: make('24mp-baseline.jpg', 'cjpeg -quality 92 $C/24mp.ppm > $OUT'),
    jpeg24progressive: make('24mp-progressive.jpg', 'cjpeg -quality 92 -progressive $C/24mp.ppm > $OUT'),
    jpeg48: make('48mp-baseline.jpg', 'cjpeg -quality 92 $C/48mp.ppm > $OUT'),
    png24: make('24mp.png', 'pnmtopng $C/24mp.ppm > $OUT'),
    png24alpha: make('24mp-alpha.png', 'pnmtopng -alpha=$C/ramp.pgm $C/24mp.ppm > $OUT'),
  };
}
