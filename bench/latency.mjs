// npm run bench:latency: the latency model of issue 23. Runs the Worker of this checkout and of a
// BASELINE revision (default: the merge base with main) in workerd with every call to D1 and to a
// Durable Object delayed by DELAY_MS (default 150: one round trip from Sydney to a primary in North
// America), and measures the keyed and demo paths end to end on a small image, key warm, against the
// same paths with no delay; the difference is what the round trips cost. Writes the latency section
// of docs/benchmarks.md. ROUNDS (default 15) requests per path and delay; the median is reported.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cache = join(root, 'bench/.cache');
const delayMs = Number(process.env.DELAY_MS ?? 150);
const rounds = Number(process.env.ROUNDS ?? 15);
const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();

/** The baseline's Worker as committed (src, migrations, config, engine, site), with this checkout's node_modules. */
function baselineCheckout() {
  const rev = process.env.BASELINE ?? git('merge-base', 'HEAD', 'main');
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = join(cache, `latency-baseline-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, 'wrangler.toml'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git -C '${root}' archive ${sha} src migrations codecs/dist public wrangler.toml tsconfig.json package.json | tar -x -C '${dir}'`]);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  }
  // The measurement itself is this checkout's, so both sides run the same one.
  for (const file of ['bench/latency/measure.latency.ts', 'test/helpers/bindings.ts']) cpSync(join(root, file), join(dir, file));
  return { dir, label: `${process.env.BASELINE ? `BASELINE=${process.env.BASELINE}` : 'the merge base with main'} (${git('log', '-1', '--format=%h %cs', sha)})` };
}

function measure(checkout) {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '-c', join(root, 'bench/latency/vitest.config.ts')], {
    cwd: root,
    env: { ...process.env, LATENCY_ROOT: checkout, DELAY_MS: String(delayMs), ROUNDS: String(rounds) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = run.stdout.split('\n').find((l) => l.includes('LATENCY {'));
  if (run.status !== 0 || !line) throw new Error(`measuring ${checkout} failed:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice(line.indexOf('{')));
}

const baseline = baselineCheckout();
console.log(`measuring ${baseline.label} and this checkout, ${rounds} requests per path, ${delayMs} ms per round trip`);
const { paths: before } = measure(baseline.dir);
const { paths: after, admitsPerSecond } = measure(root);

const rows = Object.keys(after).map((path) => {
  const side = (r) => {
    const added = r[delayMs].ms - r[0].ms;
    return [`${r[0].ms}`, `${r[delayMs].ms}`, `${added}`, `${(added / delayMs).toFixed(1)}`, `${r[delayMs].trips}`];
  };
  const ratio = (after[path][delayMs].ms / before[path][delayMs].ms).toFixed(2);
  return `| ${path} | ${side(before[path]).join(' | ')} | ${side(after[path]).join(' | ')} | ${ratio} |`;
});
const table = [
  `| path | before: no delay | before: ${delayMs} ms | added | ≈ trips | trips counted | after: no delay | after: ${delayMs} ms | added | ≈ trips | trips counted | after / before at ${delayMs} ms |`,
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ...rows,
];
console.log(table.join('\n'));
console.log(`one account's object: ${admitsPerSecond} admissions a second`);

writeDocSection('latency', 'bench:latency', [
  '## Edge latency: round trips before the answer (`npm run bench:latency`)',
  '',
  `Every call the Worker makes to D1 or to a Durable Object is delayed by ${delayMs} ms (one round trip from a far`,
  'edge to the database primary or the object), and each path is timed end to end in workerd on a small PNG',
  `(test/fixtures/engine/pngsuite/z00n2c08.png, 3 KB), key warm, ${rounds} requests per path and delay, median in milliseconds.`,
  '"added" is the median with the delay minus the median without; "≈ trips" is added / delay; "trips counted"',
  'are the calls the answer waited for, counted at the bindings (calls made side by side, as the old usage\'s two D1',
  'reads, count once in "≈ trips"). Before is ' + baseline.label + ', after this',
  `checkout; both run the same measurement (bench/latency/measure.latency.ts). Measured by \`npm run bench:latency\``,
  `with BASELINE=${process.env.BASELINE ?? '(merge base)'} on ${new Date().toISOString().slice(0, 10)}, on the shared 2-core machine, one run after the other:`,
  'compare the two sides, not the absolute times.',
  '',
  ...table,
  '',
  `One account's object answered ${admitsPerSecond} admissions a second in the same run (2,000 usage admissions, 200 at a`,
  'time, straight to the object with no delay: a key check, a minute hit and the month\'s figures each), in local workerd',
  'on this machine; docs/shared-state.md has the ceilings in production.',
]);
