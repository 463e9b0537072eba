// Issue 39's first measurement, before libjxl is in the engine: what the lossless JPEG transcode
// (`cjxl --lossless_jpeg=1`, Debian trixie's libjxl-tools, one thread) makes and holds, run natively. Bytes against
// the input on the corpus's JPEGs; peak resident memory (GNU time's %M) and user CPU on one photo saved at
// 2 to 48 MP, 4:2:0 and 4:4:4; every transcode turned back into a JPEG by djxl and compared byte for byte.
//   node bench/jxl-transcode.mjs        (CORPUS, default ../shared/corpus)
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { writeDocSection } from './doc-section.mjs';
import { run, trixiePackage } from './trixie-tools.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const corpus = resolve(process.env.CORPUS ?? join(here, '../../shared/corpus'));
const { command, versions } = trixiePackage(join(here, '.cache'), 'libjxl-tools', 'trixie-libjxl-tools');
const work = mkdtempSync(join(tmpdir(), 'jxl-bench-'));
const EFFORT = 7;

/**
 * Transcodes `jpeg`: its bytes, peak RSS in MiB, user CPU in s, and whether djxl gives the input back; undefined
 * where cjxl refuses it (arithmetic coding, CMYK).
 */
function transcode(jpeg) {
  const jxl = join(work, 'out.jxl');
  const back = join(work, 'back.jpg');
  const times = join(work, 'time.txt');
  const [loader, ...args] = command('cjxl');
  try {
    run('/usr/bin/time', ['-f', '%M %U', '-o', times, loader, ...args, jpeg, jxl, '--lossless_jpeg=1', '-e', String(EFFORT), '--num_threads=0', '--quiet']);
  } catch {
    return undefined;
  }
  const [rssKiB, userS] = readFileSync(times, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  const [dLoader, ...dArgs] = command('djxl');
  run(dLoader, [...dArgs, jxl, back, '--num_threads=0', '--quiet']);
  return { bytes: statSync(jxl).size, rssMiB: rssKiB / 1024, userS, same: readFileSync(back).equals(readFileSync(jpeg)) };
}

const started = new Date().toISOString();
const byName = [];
const refused = [];
for (const folder of ['jpeg', 'photos']) {
  for (const name of readdirSync(join(corpus, folder)).filter((f) => f.endsWith('.jpg')).sort()) {
    const file = join(corpus, folder, name);
    const result = transcode(file);
    if (result) byName.push({ name: `${folder}/${name}`, input: statSync(file).size, ...result });
    else refused.push(`${folder}/${name}`);
  }
}
const ratios = byName.map((r) => r.bytes / r.input).sort((a, b) => a - b);
const median = ratios[Math.floor(ratios.length / 2)];

const sizes = [];
const source = join(corpus, 'photos', 'plasma-Autumn-2560x1600.jpg');
for (const [mp, width] of [[2, 1732], [12, 4243], [24, 6000], [48, 8485]]) {
  for (const sampling of ['4:2:0', '4:4:4']) {
    const file = join(work, `${mp}.jpg`);
    await sharp(source).resize(width, Math.round((width * 2) / 3), { fit: 'fill' }).jpeg({ quality: 85, chromaSubsampling: sampling }).toFile(file);
    sizes.push({ mp, sampling, input: statSync(file).size, ...transcode(file) });
  }
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;
writeDocSection('jxl-transcode', 'bench:jxl', [
  '## JPEG XL: the lossless JPEG transcode natively, before it is in the engine (issue 39)',
  '',
  `\`npm run bench:jxl\` on ${started}: cjxl and djxl of Debian trixie's ${versions.filter((v) => /jxl/.test(v.name)).map((v) => `${v.name} ${v.version}`).join(', ')},`,
  `\`--lossless_jpeg=1 -e ${EFFORT} --num_threads=0\`, peak resident memory by GNU time. Every transcode was turned back by djxl: ${[...byName, ...sizes].every((r) => r.same) ? 'all byte for byte the input' : 'NOT all byte for byte the input'}.`,
  '',
  `On the corpus's ${byName.length} JPEGs cjxl takes (already compressed, 0.01 to 4 MP): median ${median.toFixed(3)}x the input's bytes (${ratios[0].toFixed(3)} to ${ratios.at(-1).toFixed(3)}); refused: ${refused.join(', ') || 'none'}.`,
  '',
  '| photo (Autumn resized, saved at 85) | input bytes | transcode | of the input | peak MiB | MiB per MP | user CPU s |',
  '|---|---|---|---|---|---|---|',
  ...sizes.map((r) => `| ${r.mp} MP ${r.sampling} | ${r.input} | ${r.bytes} | ${pct(r.bytes / r.input)} | ${r.rssMiB.toFixed(0)} | ${(r.rssMiB / r.mp).toFixed(1)} | ${r.userS.toFixed(2)} |`),
  '',
  'What this says for the engine: libjxl as cjxl drives it holds about 18 to 23 MiB per megapixel from 12 MP up (about',
  '19 MiB a megapixel more from 2 to 12 MP), the same at efforts 1, 3 and 5 (checked by hand on 12 and 24 MP 4:2:0,',
  "within 1 %): the engine's 96 MiB would take about 4 MP. A phone photo needs the transcode restructured (what libjxl",
  "keeps per coefficient and per group, and the input's copy `JxlEncoderAddJPEGFrame` makes), measured inside the",
  'engine, before `format=jxl` can be offered.',
]);
