// Tools Debian bookworm has no (recent enough) package of, taken from Debian trixie: fetched with
// scripts/trixie-apt.sh (a private APT configuration; the system's apt state is never touched), extracted with
// their trixie libraries under a cache directory and run through trixie's own dynamic loader.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TRIXIE_APT = resolve(dirname(fileURLToPath(import.meta.url)), '../scripts/trixie-apt.sh');
const MULTIARCH = { amd64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Downloads `pkg` and everything it depends on from trixie, extracted under `root`. */
function install(pkg, dir, root) {
  const apt = (command, args, options) => run('bash', [TRIXIE_APT, join(dir, 'apt'), command, ...args], options);
  console.log(`${pkg}: fetching it and its libraries from Debian trixie`);
  const depends = apt('apt-cache', ['depends', '--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances', pkg]);
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
 * Sets trixie's `pkg` up under `cache/dirName` (once). Returns `command(binary)`: the argv prefix that runs one of
 * its programs with trixie's loader and libraries, and the trixie packages used.
 */
export function trixiePackage(cache, pkg, dirName) {
  const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
  const multiarch = MULTIARCH[arch];
  if (!multiarch) throw new Error(`${pkg}: no trixie loader path known for ${arch}`);
  const dir = resolve(cache, dirName);
  const root = join(dir, 'root');
  if (!existsSync(join(root, 'versions.json'))) install(pkg, dir, root);
  const libs = [join(root, 'usr/lib', multiarch), join(root, 'lib', multiarch)].join(':');
  const loader = readdirSync(join(root, 'usr/lib', multiarch)).find((f) => f.startsWith('ld-linux'));
  const command = (binary) => [join(root, 'usr/lib', multiarch, loader), '--library-path', libs, join(root, 'usr/bin', binary)];
  const versions = JSON.parse(readFileSync(join(root, 'versions.json'), 'utf8'));
  return { command, versions };
}
