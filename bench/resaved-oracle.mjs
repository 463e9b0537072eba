// JPEG from JPEG (issue 24), a measurement for the next round: how jagged our engine's bytes-vs-score curve is near
// the quality a service quality gives, and what an oracle picking along it would save. For each photo of a part of
// the development set and each service quality, the output as the API runs it (compressImage) beside the outputs at
// nearby jpegli qualities (SWEEP steps of jpegli's scale, sent through the same path at the service quality that maps
// onto each, so the grid rule is the same), and the same encodes with the steps off the input's grid (the engine
// alone, no alignSteps). The oracle takes, on each metric, the fewest bytes whose score is at least the emitted one's.
// A measurement of the tuning part: run on another part only to confirm a change, as bench/resaved.mjs says.
import { readFileSync } from 'node:fs';
import { atScore, frontier, median } from './curves.mjs';
import { RESAVED_SERVICE, resavedScoring, send } from './resaved-quality.mjs';
import { resavedPhotos } from './resaved.mjs';

const METRICS = [['ssim', (a, b) => a >= b], ['distance', (a, b) => a <= b]];

/** The service quality whose jpegli quality is `jpegli` (quality-scale.ts rounds a piecewise-linear map). */
function serviceFor(encoderQuality, jpegli) {
  const lowest = (target) => {
    let [lo, hi] = [1, 99];
    for (let i = 0; i < 40; i++) [lo, hi] = encoderQuality('jpeg', (lo + hi) / 2) >= target ? [lo, (lo + hi) / 2] : [(lo + hi) / 2, hi];
    return hi;
  };
  const service = (lowest(jpegli) + lowest(jpegli + 1)) / 2;
  if (encoderQuality('jpeg', service) !== jpegli) throw new Error(`no service quality gives jpegli ${jpegli}`);
  return service;
}

/** How many of `points` another beats on bytes and `metric` together (the jagged curve's dents). */
const dominated = (points, metric, better) => points.filter((p) => points.some((q) => q.bytes < p.bytes && better(q[metric], p[metric]) && q[metric] !== p[metric])).length;

export async function resavedOracle({ engines: { current, former }, ssimulacra2, work, cache, corpus, part, only, sweep }) {
  const { score, cached, formerCurve, referenceOf } = resavedScoring({ ssimulacra2, work, cache });
  const rows = [];
  for (const photo of resavedPhotos(cache, corpus, part).filter((p) => !only || only.includes(p.name))) {
    const input = new Uint8Array(readFileSync(photo.file));
    const reference = referenceOf(photo);
    const header = current.readHeader(input);
    const id = `${photo.name}:${input.length}`;
    const formerPoints = await formerCurve(former, input, reference, id);
    /** Our output at jpegli quality `q`: as the API runs it (on the grid where its rule says), and off the grid. */
    const at = async (q) => {
      const api = await send(current, input, serviceFor(current.encoderQuality, q));
      const aligned = { q, ...(await cached(`sweep:${current.codeSha256}:${id}:${q}`, () => score(reference, api.bytes))) };
      const off = await current.engine.transcode(input, header, { format: 'jpeg', quality: q, width: header.width, height: header.height });
      const same = Buffer.from(off).equals(Buffer.from(api.bytes));
      return { aligned, off: same ? aligned : { q, ...(await cached(`off-grid:${current.codeSha256}:${id}:${q}`, () => score(reference, off))) } };
    };
    for (const service of RESAVED_SERVICE) {
      const emittedQ = current.encoderQuality('jpeg', service);
      const emitted = { q: emittedQ, ...(await cached(`current:${current.codeSha256}:${id}:${service}`, async () => score(reference, (await send(current, input, service)).bytes))) };
      const points = [];
      for (const step of [0, ...sweep]) points.push(await at(emittedQ + step));
      const row = { name: photo.name, service, emitted };
      for (const [metric, better] of METRICS) {
        const formerAt = (p) => p.bytes / (atScore(frontier(formerPoints, metric), metric, p[metric], 'bytes') ?? NaN);
        for (const side of ['aligned', 'off']) {
          const curve = [emitted, ...points.map((p) => p[side])];
          const best = curve.filter((p) => better(p[metric], emitted[metric])).reduce((a, b) => (b.bytes < a.bytes ? b : a));
          row[`${side}-${metric}`] = { q: best.q, saving: best.bytes / emitted.bytes, former: formerAt(best), dents: dominated(curve.slice(1), metric, better) };
        }
        row[`emitted-${metric}`] = formerAt(emitted);
      }
      rows.push(row);
      console.log(photo.name, service, JSON.stringify({ ...row, curve: points.map(({ aligned, off }) => [aligned, off]) }));
    }
  }
  return table(rows, sweep);
}

function table(rows, sweep) {
  const f = (x) => (Number.isNaN(x) ? 'out of range' : x.toFixed(3));
  const lines = [
    `Candidates: the emitted output's jpegli quality ${sweep.map((s) => (s > 0 ? `+${s}` : s)).join(', ')}. Per metric (S: SSIMULACRA2, B: butteraugli): the emitted bytes over the former engine's at equal score; the oracle's jpegli quality, its bytes over the emitted ones, over the former engine's at its score; the same off the input's grid; dents: candidates (of ${sweep.length + 1}) another beats on bytes and score.`,
    '',
    '| photo | service | S: emitted / former | oracle q | oracle / emitted | oracle / former | dents | off grid: q | / emitted | dents | B: emitted / former | oracle q | oracle / emitted | oracle / former | dents | off grid: q | / emitted | dents |',
    `|---|---|${'---|'.repeat(16)}`,
  ];
  for (const r of rows) {
    const cells = METRICS.map(([m]) => {
      const [a, o] = [r[`aligned-${m}`], r[`off-${m}`]];
      return `${f(r[`emitted-${m}`])} | ${a.q} | ${f(a.saving)} | ${f(a.former)} | ${a.dents} | ${o.q} | ${f(o.saving)} | ${o.dents}`;
    });
    lines.push(`| ${r.name} | ${r.service} | ${cells.join(' | ')} |`);
  }
  for (const service of RESAVED_SERVICE) {
    const at = rows.filter((r) => r.service === service);
    const cells = METRICS.map(([m]) => {
      const med = (pick) => f(median(at.map(pick).filter((x) => !Number.isNaN(x))));
      return `**${med((r) => r[`emitted-${m}`])}** | | **${med((r) => r[`aligned-${m}`].saving)}** | **${med((r) => r[`aligned-${m}`].former)}** | | | ${med((r) => r[`off-${m}`].saving)} | `;
    });
    lines.push(`| median (${at.length}) | ${service} | ${cells.join(' | ')} |`);
  }
  return lines;
}
