// The thumbnail section of npm run bench (issue 37): a 24 MP and a 48 MP JPEG to a 400x400 cover thumbnail,
// gravity center and auto, through the whole image path (compressImage, as the API runs it) beside sharp
// (its own libvips; sharp.concurrency(1)) on the same images in the same run: process CPU time and bytes.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

/** Process CPU milliseconds (user + system, every thread) that `fn` takes. */
async function cpuMs(fn) {
  const before = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Rows of the table: each job RUNS times, ours and sharp's alternating, after a warm-up of each. */
export async function thumbnailTable(current, images, runs = 3) {
  const ours = (input, gravity) =>
    // As the schema hands gravity over: a focal point, or auto.
    current.compressImage(input, { quality: 80, format: 'jpeg', width: 400, height: 400, fit: 'cover', gravity: gravity === 'auto' ? 'auto' : { x: 0.5, y: 0.5 }, acceptsWebp: false, cpuBudgetMs: Infinity });
  const theirs = (input, gravity) =>
    sharp(input, { limitInputPixels: false })
      .resize(400, 400, { fit: 'cover', position: gravity === 'auto' ? sharp.strategy.attention : 'centre' })
      .jpeg({ quality: 80 })
      .toBuffer();
  const rows = [
    '| input | gravity | ours CPU-ms | sharp CPU-ms | ours / sharp | ours bytes | sharp bytes | our X-Crop window |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const figures = {};
  for (const [label, file] of [['24 MP JPEG (11158x2156, q90)', images.jpeg24], ['48 MP JPEG (15780x3049, q80)', images.jpeg48]]) {
    const input = new Uint8Array(readFileSync(file));
    for (const gravity of ['center', 'auto']) {
      await ours(input, gravity);
      await theirs(input, gravity);
      const a = [];
      const b = [];
      let mine;
      let sharps;
      for (let i = 0; i < runs; i++) {
        const x = await cpuMs(() => ours(input, gravity));
        a.push(x.ms);
        mine = x.value;
        const y = await cpuMs(() => theirs(input, gravity));
        b.push(y.ms);
        sharps = y.value;
      }
      const ms = median(a);
      const sharpMs = median(b);
      figures[`${label} ${gravity}`] = ms;
      const crop = mine.crop ? `${mine.crop.left},${mine.crop.top},${mine.crop.width},${mine.crop.height}` : '-';
      rows.push(`| ${label} | ${gravity} | ${ms.toFixed(0)} | ${sharpMs.toFixed(0)} | ${(ms / sharpMs).toFixed(2)} | ${mine.bytes.length} | ${sharps.length} | ${crop} |`);
    }
  }
  for (const label of ['24 MP JPEG (11158x2156, q90)', '48 MP JPEG (15780x3049, q80)']) {
    rows.push('', `${label}: auto / center, ours: ${(figures[`${label} auto`] / figures[`${label} center`]).toFixed(2)}.`);
  }
  return rows;
}
