// Native tools the bench compares against, from Debian; installed when missing.
import { execFileSync, spawnSync } from 'node:child_process';

const PACKAGES = {
  cjpeg: 'libjpeg-turbo-progs',
  djpeg: 'libjpeg-turbo-progs',
  cwebp: 'webp',
  dwebp: 'webp',
  optipng: 'optipng',
  pngquant: 'pngquant',
  butteraugli_main: 'libjxl-devtools',
  pamscale: 'netpbm',
  pnmtopng: 'netpbm',
  pgmramp: 'netpbm',
  avifdec: 'libavif-bin',
  avifenc: 'libavif-bin',
};

export function ensureTools() {
  const missing = Object.keys(PACKAGES).filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) install([...new Set(missing.map((tool) => PACKAGES[tool]))]);
}

/** Installs those of Debian's `packages` (data the bench reads, such as wallpapers) that are not installed. */
export function ensurePackages(packages) {
  const installed = (name) => spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).stdout === 'install ok installed';
  const missing = packages.filter((name) => !installed(name));
  if (missing.length > 0) install(missing);
}

function install(packages) {
  console.log(`installing ${packages.join(' ')}`);
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch (error) {
    throw new Error(`the bench needs Debian's ${packages.join(', ')}: apt-get install failed (as root, after apt-get update): ${error.message}`);
  }
}

/** Runs a shell pipeline and returns its wall time in ms (the tools are single-threaded). */
export function timeShell(command) {
  const start = performance.now();
  const result = spawnSync('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return performance.now() - start;
}

/** butteraugli_main's 3-norm distance of `distorted` from `reference` (lower is better). */
export function butteraugli(reference, distorted) {
  // stderr ignored: it notes that a PPM is taken as sRGB, once per file.
  const out = execFileSync('butteraugli_main', [reference, distorted], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const match = /3-norm:\s*([0-9.]+)/.exec(out);
  if (!match) throw new Error(`no 3-norm in: ${out}`);
  return Number(match[1]);
}
