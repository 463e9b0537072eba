// Issue 36, "One look across formats": per photo of the development set (bench/one-look-set.mjs) and service quality,
// the `*/*` answer (the input's format, as the API answers it) and the answers to a browser that takes WebP, and AVIF
// and WebP, with their format, bytes and SSIMULACRA2 against the input's decoded pixels; on the tuning part also WebP
// and AVIF swept over their encoder qualities, and the quality whose look is the `*/*` answer's (what the rule in
// src/image/steps/one-look.ts predicts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atScore, median } from './curves.mjs';
import { timeShell } from './tools.mjs';
import { oneLookPhotos } from './one-look-set.mjs';

export const ONE_LOOK_SERVICE = [70, 80, 90];
const WEBP_SWEEP = [50, 60, 70, 75, 80, 85, 88, 91, 94, 97, 99];
const AVIF_SWEEP = [35, 45, 53, 60, 66, 72, 78, 84, 90, 95, 99];
export const ONE_LOOK_ACCEPTS = [
  { label: 'image/webp,*/*', acceptsWebp: true, acceptsAvif: false },
  { label: 'image/avif,image/webp,*/*', acceptsWebp: true, acceptsAvif: true },
];

const DECODE = {
  jpeg: 'djpeg -ppm $IN > $OUT',
  webp: 'dwebp -quiet $IN -ppm -o $OUT',
  png: 'pngtopnm $IN > $OUT',
  avif: 'avifdec -j 1 --ignore-icc $IN $IN.png > /dev/null && pngtopnm $IN.png > $OUT',
};
const EXTENSION = { jpg: 'jpeg', png: 'png', webp: 'webp' };

/**
 * The rows of `part`: { name, facts, service, base, answers: {label: answer}, sweeps? } with each answer's format,
 * bytes, notes and SSIMULACRA2. Cached per photo in bench/.cache/one-look-rows under the code's hash.
 */
export async function oneLookRows({ current, ssimulacra2, cache, corpus, work, part, sweep }) {
  const photos = oneLookPhotos(cache, corpus, part).filter(({ name }) => !process.env.PHOTOS || process.env.PHOTOS.split(',').includes(name));
  const dir = join(cache, 'one-look-rows', createHash('sha256').update(current.codeSha256).update(String(sweep)).digest('hex').slice(0, 16));
  mkdirSync(dir, { recursive: true });
  const rows = [];
  for (const { name, file } of photos) {
    const saved = join(dir, `${name}.json`);
    if (existsSync(saved)) {
      rows.push(...JSON.parse(readFileSync(saved, 'utf8')));
      continue;
    }
    const input = new Uint8Array(readFileSync(file));
    const reference = join(work, `${name}.ref.ppm`);
    timeShell(DECODE[EXTENSION[name.split('.').at(-1)]].replaceAll('$IN', file).replaceAll('$OUT', reference));
    const score = (format, bytes) => {
      const out = join(work, `out.${format}`);
      const ppm = join(work, 'out.ppm');
      writeFileSync(out, bytes);
      timeShell(DECODE[format].replaceAll('$IN', out).replaceAll('$OUT', ppm));
      return ssimulacra2.score(reference, ppm);
    };
    const header = current.readHeader(input);
    const facts = { format: header.format, quality: header.quality, grey: header.grey, sampling: header.sampling.map(({ h, v }) => `${h}x${v}`).join(','), bpp: (header.fileBytes * 8) / (header.width * header.height) };
    const sweeps = {};
    if (sweep) {
      for (const [format, qualities] of [['webp', WEBP_SWEEP], ['avif', AVIF_SWEEP]]) {
        sweeps[format] = [];
        for (const quality of qualities) {
          const bytes = await current.engine.transcode(input, header, { format, quality, width: header.width, height: header.height }, { cpuBudgetMs: Infinity });
          sweeps[format].push({ quality, bytes: bytes.length, ssim: score(format, bytes) });
        }
      }
    }
    const answer = async (request) => {
      const started = performance.now();
      const result = await current.compressImage(input, { acceptsWebp: false, ...request, cpuBudgetMs: Infinity });
      return { ms: performance.now() - started, format: result.format, bytes: result.bytes.length, notes: result.notes, ssim: score(result.format, result.bytes) };
    };
    const mine = [];
    for (const service of ONE_LOOK_SERVICE) {
      const base = await answer({ quality: service, format: 'auto' });
      const answers = {};
      for (const { label, acceptsWebp, acceptsAvif } of ONE_LOOK_ACCEPTS) answers[label] = await answer({ quality: service, format: 'auto', acceptsWebp, acceptsAvif });
      const matched = Object.fromEntries(
        Object.entries(sweeps).map(([format, points]) => [format, { quality: atScore(points, 'ssim', base.ssim, 'quality'), bytes: atScore(points, 'ssim', base.ssim, 'bytes'), scale: current.encoderQuality(format, service) }]),
      );
      const row = { name, facts, service, base, answers, matched };
      console.log(JSON.stringify({ name, service, facts, base: [base.format, base.bytes, base.ssim.toFixed(2), base.notes.join(' ')], matched, answers: Object.values(answers).map((a) => [a.format, a.bytes, a.ssim.toFixed(2)]) }));
      mine.push(row);
    }
    writeFileSync(saved, JSON.stringify(mine));
    rows.push(...mine);
  }
  return rows;
}

/** The section's tables: per Accept header and service quality the bars, then every row. */
export function oneLookTables(rows) {
  const lines = [
    '| Accept | service quality | photos | answers not `*/*`\'s format | most SSIMULACRA2 below `*/*` (photo) | larger than `*/*` | median bytes saved over `*/*` | median saved where the format changed |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const { label } of ONE_LOOK_ACCEPTS) {
    for (const service of ONE_LOOK_SERVICE) {
      const at = rows.filter((r) => r.service === service);
      const worst = at.reduce((a, b) => (b.base.ssim - b.answers[label].ssim > a.base.ssim - a.answers[label].ssim ? b : a), at[0]);
      const saved = (r) => 1 - r.answers[label].bytes / r.base.bytes;
      const changed = at.filter((r) => r.answers[label].format !== r.base.format);
      lines.push(
        `| ${label} | ${service} | ${at.length} | ${changed.length} | ${(worst.base.ssim - worst.answers[label].ssim).toFixed(2)} (${worst.name}) | ${at.filter((r) => r.answers[label].bytes > r.base.bytes).length} | ${(100 * median(at.map(saved))).toFixed(1)} % | ${changed.length ? `${(100 * median(changed.map(saved))).toFixed(1)} %` : '-'} |`,
      );
    }
  }
  lines.push('', `| photo | input (effective quality, sampling, bits/px) | service quality | \`*/*\`: format, bytes, SSIMULACRA2 | ${ONE_LOOK_ACCEPTS.map(({ label }) => `${label}: format, bytes, SSIMULACRA2`).join(' | ')} | notes |`, '|---|---|---|---|---|---|---|');
  const cell = (a) => `${a.format} ${a.bytes} ${a.ssim.toFixed(2)}`;
  for (const r of rows) {
    const notes = [...new Set([r.base, ...Object.values(r.answers)].flatMap((a) => a.notes))].join(', ');
    lines.push(`| ${r.name} | ${r.facts.format} ${r.facts.quality || ''} ${r.facts.grey ? 'grey' : r.facts.sampling} ${r.facts.bpp.toFixed(2)} | ${r.service} | ${cell(r.base)} | ${ONE_LOOK_ACCEPTS.map(({ label }) => cell(r.answers[label])).join(' | ')} | ${notes} |`);
  }
  return lines;
}

/** The tuning part's fit: per row the scale's WebP and AVIF qualities and those whose look matches the answer to Accept: *\/*. */
export function oneLookFitTable(rows) {
  const q = (m) => (m.quality === undefined ? 'out of sweep' : m.quality.toFixed(1));
  const b = (m, base) => (m.bytes === undefined ? '-' : (m.bytes / base.bytes).toFixed(3));
  const lines = [
    '| photo | input | service quality | `*/*`: format, bytes, SSIMULACRA2, notes | WebP: scale, matched quality, bytes / `*/*` | AVIF: scale, matched quality, bytes / `*/*` |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.facts.format} ${r.facts.quality || ''} ${r.facts.grey ? 'grey' : r.facts.sampling} ${r.facts.bpp.toFixed(2)} | ${r.service} | ${r.base.format} ${r.base.bytes} ${r.base.ssim.toFixed(2)} ${r.base.notes.join(' ')} | ${r.matched.webp.scale}, ${q(r.matched.webp)}, ${b(r.matched.webp, r.base)} | ${r.matched.avif.scale}, ${q(r.matched.avif)}, ${b(r.matched.avif, r.base)} |`,
    );
  }
  return lines;
}
