// SSIMULACRA2, the reference tool from Debian trixie's libjxl-devtools (bookworm's 0.7 has none). It does
// not install on bookworm, so it is fetched with scripts/trixie-apt.sh (a private APT configuration; the
// system's apt state is never touched), extracted with its trixie libraries under bench/.cache/trixie and
// run through trixie's own dynamic loader.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOL_PACKAGE = 'libjxl-devtools';
const TRIXIE_APT = resolve(dirname(fileURLToPath(import.meta.url)), '../scripts/trixie-apt.sh');
const MULTIARCH = { amd64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Downloads libjxl-devtools and everything it depends on from trixie, extracted under `root`. */
function install(dir, root) {
  const apt = (command, args, options) => run('bash', [TRIXIE_APT, join(dir, 'apt'), command, ...args], options);
  console.log(`ssimulacra2: fetching ${TOOL_PACKAGE} and its libraries from Debian trixie`);
  const depends = apt('apt-cache', ['depends', '--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances', TOOL_PACKAGE]);
  // Lines without indentation are packages; <virtual> ones are provided by a real package listed too.
  const packages = [...new Set(depends.split('\n').filter((l) => l && !l.startsWith(' ') && !l.startsWith('<')))].sort();
  const debs = join(dir, 'debs');
  rmSync(debs, { recursive: true, force: true });
  mkdirSync(debs, { recursive: true });
  apt('apt-get', ['download', '-qq', ...packages], { cwd: debs });
  rmSync(root, { recursive: true, force: true });
  const versions = [];
  for (const deb of readdirSync(debs).filter((f) => f.endsWith('.deb')).sort()) {
    run('dpkg-deb', ['-x', join(debs, deb), root]);
    const [name, version] = run('dpkg-deb', ['-f', join(debs, deb), 'Package', 'Version']).trim().split('\n').map((l) => l.split(': ')[1]);
    versions.push({ name, version });
  }
  writeFileSync(join(root, 'versions.json'), JSON.stringify(versions, null, 1));
  rmSync(debs, { recursive: true, force: true });
}

/**
 * Sets the tool up in `cache` (once) and returns `score(reference, distorted)` for two PPM files (PNGs
 * with gAMA or cHRM would be scored in their own colour space) and the trixie packages used.
 */
export function ensureSsimulacra2(cache) {
  const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
  const multiarch = MULTIARCH[arch];
  if (!multiarch) throw new Error(`ssimulacra2: no trixie loader path known for ${arch}`);
  const dir = resolve(cache, 'trixie');
  const root = join(dir, 'root');
  if (!existsSync(join(root, 'versions.json'))) install(dir, root);
  const libs = [join(root, 'usr/lib', multiarch), join(root, 'lib', multiarch)].join(':');
  const loader = readdirSync(join(root, 'usr/lib', multiarch)).find((f) => f.startsWith('ld-linux'));
  const prefix = [join(root, 'usr/lib', multiarch, loader), '--library-path', libs, join(root, 'usr/bin/ssimulacra2')];
  const versions = JSON.parse(readFileSync(join(root, 'versions.json'), 'utf8'));

  /**
   * SSIMULACRA2 score of `distorted` against `reference` (100 is identical, higher is better); undefined
   * for an image under 8x8 pixels, which the tool does not score.
   */
  function score(reference, distorted) {
    const result = spawnSync(prefix[0], [...prefix.slice(1), reference, distorted], { encoding: 'utf8' });
    if (result.status !== 0 && /Minimum image size/.test(result.stderr)) return undefined;
    if (result.status !== 0) throw new Error(`ssimulacra2 ${reference} ${distorted} failed:\n${result.stderr}`);
    const out = result.stdout;
    const value = Number(out.trim());
    if (!Number.isFinite(value)) throw new Error(`ssimulacra2 printed no score: ${out}`);
    return value;
  }
  return { score, versions };
}
