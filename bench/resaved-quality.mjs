// JPEG from JPEG (issue 24): the development set of already compressed photos (bench/resaved.mjs) sent through
// the image path as the API runs it (compressImage, at service qualities 80 and 85), by this checkout's code and
// by TODAY's (a git revision; default the merge base with main), each scored against the input itself (decoded
// by djpeg) on SSIMULACRA2 and butteraugli, and compared at equal score with two curves: the former engine's
// (BASELINE, e.g. 6bebd7b's mozjpeg, at eight service qualities, and the original file, which its never-larger
// rule returned when re-encoding did not shrink it) and plain libjpeg-turbo's (`cjpeg -optimize -progressive` at
// eight qualities). CPU time of both paths side by side. Points of the former engine and cjpeg are cached in
// bench/.cache/resaved-scores.json (they do not change with this checkout), and so are TODAY's (by revision) and
// this checkout's (by its bundled code and module), so runs of parts side by side (PHOTOS) fill one final run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atScore, frontier, median } from './curves.mjs';
import { RESAVED_PARTS, resavedPhotos } from './resaved.mjs';
import { butteraugli } from './tools.mjs';

export const RESAVED_SERVICE = [80, 85];
/** The image path of one engine at a service quality, as the API runs it for a JPEG with no other ask. */
export const send = (side, input, quality) => side.compressImage(input, { quality, format: 'auto', acceptsWebp: false });
const FORMER_SWEEP = [50, 60, 70, 75, 80, 85, 90, 95];
const CJPEG_SWEEP = [50, 60, 70, 75, 80, 85, 90, 95];
/** The scores of pixels identical to the reference (both tools agree; not run for them). */
const IDENTICAL = { ssim: 100, distance: 0 };
const METRICS = ['ssim', 'distance'];
/** The issue's bars: at most this many photos above 1.03 of the former engine at equal SSIMULACRA2, none above cjpeg. */
const ABOVE_FORMER = 1.03;
const CPU_REPEATS = 3;

/**
 * `engines`: { current, today, former }, each as bench/engine.mjs loads it with an `engine` made over its module;
 * `photos` ([{ name, file, part }]) instead of the development set's (the corpus's JPEG masters).
 * Returns the lines of the section (tables) and the rows for whoever wants them.
 */
export async function resavedComparison({ engines, ssimulacra2, work, cache, corpus, part, only, photos }) {
  const { current, today, former } = engines;
  const { score, cached, formerCurve, referenceOf } = resavedScoring({ ssimulacra2, work, cache });
  const cjpegVersion = execFileSync('sh', ['-c', 'cjpeg -version 2>&1'], { encoding: 'utf8' }).trim().split('\n')[0];

  const rows = [];
  const cpu = [];
  for (const photo of (photos ?? resavedPhotos(cache, corpus, part)).filter((p) => !only || only.includes(p.name))) {
    const input = new Uint8Array(readFileSync(photo.file));
    const reference = referenceOf(photo);
    const header = current.readHeader(input);
    const id = `${photo.name}:${input.length}`;

    const formerPoints = await formerCurve(former, input, reference, id);
    const cjpegPoints = [];
    for (const quality of CJPEG_SWEEP) {
      const encode = () => execFileSync('cjpeg', ['-optimize', '-progressive', '-quality', String(quality), reference], { maxBuffer: 1 << 30 });
      cjpegPoints.push(await cached(`cjpeg:${cjpegVersion}:${id}:${quality}`, () => score(reference, encode())));
    }

    for (const service of RESAVED_SERVICE) {
      const row = { ...photo, mp: (header.width * header.height) / 1e6, sourceBytes: input.length, service };
      for (const [label, side] of [['today', today], ['current', current]]) {
        const key = label === 'today' ? today.revision && `today:${today.revision}:${id}:${service}` : `current:${current.codeSha256}:${id}:${service}`;
        const point = await cached(key, async () => {
          const result = await send(side, input, service);
          const notes = result.notes.join(' ');
          // The very bytes today's code makes have its scores (its point may come from the cache, unscored here).
          if (label === 'current' && Buffer.from(result.bytes).equals(Buffer.from((await send(today, input, service)).bytes))) {
            const { ratios: _, ...same } = row.today;
            return { ...same, notes };
          }
          return { ...score(reference, result.bytes), notes };
        });
        row[label] = { ...point, ratios: ratios(point, formerPoints, cjpegPoints) };
      }
      rows.push(row);
      console.log(photo.name, service, JSON.stringify({ today: row.today, current: row.current }));
    }

    // CPU time of the whole image path at service 80, the two engines alternating, median of each.
    const times = { today: [], current: [] };
    for (let i = 0; i < CPU_REPEATS; i++) {
      for (const [label, side] of [['today', today], ['current', current]]) {
        const before = process.cpuUsage();
        await send(side, input, RESAVED_SERVICE[0]);
        const used = process.cpuUsage(before);
        times[label].push((used.user + used.system) / 1000);
      }
    }
    cpu.push({ ...photo, mp: (header.width * header.height) / 1e6, today: median(times.today), current: median(times.current) });
  }
  return { lines: [...summary(rows, today), '', ...cpuTable(cpu), '', ...photoTable(rows)], rows };
}

/**
 * `score(reference, jpeg)`: the bytes and scores of a JPEG against the reference PPM/PGM; `cached(key, make)`: a
 * point kept under `key` in bench/.cache/resaved-scores.json across runs (none: made every time); `formerCurve`, `referenceOf`.
 */
export function resavedScoring({ ssimulacra2, work, cache }) {
  const scoresFile = join(cache, 'resaved-scores.json');
  /** The points another run (resaved and masters may run side by side) has stored meanwhile. */
  const storedNow = () => {
    try {
      return existsSync(scoresFile) ? JSON.parse(readFileSync(scoresFile, 'utf8')) : {};
    } catch {
      return {};
    }
  };
  const stored = storedNow();
  /** Scores of `jpeg` against the reference PPM/PGM (identical pixels are not run through the tools). */
  function score(reference, jpeg) {
    const decoded = execFileSync('djpeg', [], { input: jpeg, maxBuffer: 1 << 30 });
    if (decoded.equals(readFileSync(reference))) return { bytes: jpeg.length, ...IDENTICAL };
    const pnm = join(work, 'resaved-out.pnm');
    writeFileSync(pnm, decoded);
    return { bytes: jpeg.length, ssim: ssimulacra2.score(reference, pnm), distance: butteraugli(reference, pnm) };
  }
  /** `make()`'s point, kept under `key` across runs (none: made every time). */
  async function cached(key, make) {
    if (!key) return make();
    // A run beside this one may have made it meanwhile.
    if (!stored[key]) Object.assign(stored, storedNow());
    if (!stored[key]) {
      stored[key] = await make();
      // Written whole under another name, then renamed: a run beside this one never reads half a file.
      writeFileSync(`${scoresFile}.${process.pid}`, JSON.stringify({ ...storedNow(), ...stored }));
      renameSync(`${scoresFile}.${process.pid}`, scoresFile);
    }
    return stored[key];
  }
  /** The former engine's curve for `input`: its outputs at FORMER_SWEEP, and the original file (its never-larger rule). */
  async function formerCurve(former, input, reference, id) {
    const header = former.readHeader(input);
    const points = [{ bytes: input.length, ...IDENTICAL, original: true }];
    for (const service of FORMER_SWEEP) {
      const out = { format: 'jpeg', quality: former.encoderQuality('jpeg', service), width: header.width, height: header.height };
      points.push(await cached(`former:${former.sha256}:${id}:${service}`, async () => score(reference, await former.engine.transcode(input, header, out))));
    }
    return points;
  }
  /** The photo decoded by djpeg into `work`: the reference its outputs are scored against. */
  function referenceOf(photo) {
    const reference = join(work, `${photo.name}.pnm`);
    writeFileSync(reference, execFileSync('djpeg', [photo.file], { maxBuffer: 1 << 30 }));
    return reference;
  }
  return { score, cached, formerCurve, referenceOf };
}

/**
 * Bytes of `point` over each curve's at its score: the former engine's on both metrics, cjpeg's on butteraugli.
 * Where `point` looks better than every cjpeg point, cjpeg's best stands for it and the ratio is an upper bound.
 */
function ratios(point, formerPoints, cjpegPoints) {
  const out = {};
  for (const metric of METRICS) out[`former-${metric}`] = point.bytes / (atScore(frontier(formerPoints, metric), metric, point[metric], 'bytes') ?? NaN);
  const curve = frontier(cjpegPoints, 'distance');
  const cjpeg = atScore(curve, 'distance', point.distance, 'bytes');
  out['cjpeg-distance'] = point.bytes / (cjpeg ?? (point.distance < curve.at(-1).distance ? curve.at(-1).bytes : NaN));
  out.cjpegBound = cjpeg === undefined && point.distance < curve.at(-1).distance;
  return out;
}

const fmt = (r) => (Number.isNaN(r) ? 'out of range' : r.toFixed(3));
const PARTS = [...[...RESAVED_PARTS, 'masters'].map((name) => [name, (r) => r.part === name]), ['all', () => true]];
/** The parts the rows cover, and all of them together when there are two. */
const partsOf = (rows) => PARTS.filter(([name, keep]) => rows.some(keep) && (name !== 'all' || new Set(rows.map((r) => r.part)).size > 1));

function summary(rows, today) {
  const lines = [
    `| code | photos | service quality | bytes / former at equal SSIMULACRA2: median | largest (photo) | above ${ABOVE_FORMER} | bytes / former at equal butteraugli: median | largest (photo) | bytes / cjpeg at equal butteraugli: median | largest (photo) | larger than cjpeg |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const label of ['today', 'current']) {
    for (const [part, keep] of partsOf(rows)) {
      for (const service of RESAVED_SERVICE) {
        const at = rows.filter((r) => keep(r) && r.service === service);
        if (!at.length) continue;
        const column = (key) => {
          const valid = at.filter((r) => !Number.isNaN(r[label].ratios[key]));
          const worst = valid.reduce((a, b) => (b[label].ratios[key] > a[label].ratios[key] ? b : a), valid[0]);
          const missing = at.length - valid.length;
          return { median: median(valid.map((r) => r[label].ratios[key])), worst, missing, count: (limit) => valid.filter((r) => r[label].ratios[key] > limit).length };
        };
        const cell = (c, key) => `**${c.median.toFixed(3)}**${c.missing ? ` (${c.missing} out of range)` : ''} | ${c.worst[label].ratios[key].toFixed(3)} (${c.worst.name})`;
        const [s, b, j] = [column('former-ssim'), column('former-distance'), column('cjpeg-distance')];
        const name = label === 'today' ? `today (${today.label})` : 'this checkout';
        lines.push(`| ${name} | ${part} (${at.length}) | ${service} | ${cell(s, 'former-ssim')} | ${s.count(ABOVE_FORMER)} | ${cell(b, 'former-distance')} | ${cell(j, 'cjpeg-distance')} | ${j.count(1)} |`);
      }
    }
  }
  return lines;
}

function cpuTable(cpu) {
  const lines = ['| photos | MP | today CPU-ms per MP | this checkout CPU-ms per MP | this checkout / today | largest (photo) |', '|---|---|---|---|---|---|'];
  for (const [part, keep] of partsOf(cpu)) {
    const at = cpu.filter(keep);
    if (!at.length) continue;
    const mp = at.reduce((n, r) => n + r.mp, 0);
    const [today, current] = ['today', 'current'].map((k) => at.reduce((n, r) => n + r[k], 0) / mp);
    const worst = at.reduce((a, b) => (b.current / b.today > a.current / a.today ? b : a), at[0]);
    lines.push(`| ${part} (${at.length}) | ${mp.toFixed(1)} | ${today.toFixed(1)} | ${current.toFixed(1)} | **${(current / today).toFixed(2)}** | ${(worst.current / worst.today).toFixed(2)} (${worst.name}) |`);
  }
  return lines;
}

function photoTable(rows) {
  const sides = ['today', 'current'];
  const lines = [
    '| photo | part | source bytes | service quality | ' +
      sides.map((s) => `${s}: bytes | SSIMULACRA2 | butteraugli | / former (S) | / former (B) | / cjpeg (B) | notes`).join(' | ') +
      ' |',
    `|---|---|---|---|${'---|'.repeat(14)}`,
  ];
  for (const r of rows) {
    const cells = sides.map((s) => {
      const p = r[s];
      return `${p.bytes} | ${p.ssim.toFixed(2)} | ${p.distance.toFixed(3)} | ${fmt(p.ratios['former-ssim'])} | ${fmt(p.ratios['former-distance'])} | ${p.ratios.cjpegBound ? '< ' : ''}${fmt(p.ratios['cjpeg-distance'])} | ${p.notes || '-'}`;
    });
    lines.push(`| ${r.name} | ${r.part} | ${r.sourceBytes} | ${r.service} | ${cells.join(' | ')} |`);
  }
  return lines;
}
