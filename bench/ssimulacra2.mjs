// SSIMULACRA2, the reference tool from Debian trixie's libjxl-devtools (bookworm's 0.7 has none). It does
// not install on bookworm, so it is fetched with a private APT configuration (trixie, the system's own
// mirror; the system's apt state is never touched), extracted with its trixie libraries under
// bench/.cache/trixie and run through trixie's own dynamic loader.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const TOOL_PACKAGE = 'libjxl-devtools';
const SUITE = 'trixie';
const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';
const MULTIARCH = { amd64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

/** The Debian mirror the system's bookworm entry names (deb822 or one-line format). */
function systemMirror() {
  const deb822 = '/etc/apt/sources.list.d/debian.sources';
  if (existsSync(deb822)) {
    for (const stanza of readFileSync(deb822, 'utf8').split(/\n\s*\n/)) {
      const uris = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1].split(/\s+/) ?? [];
      if (uris && suites.some((s) => /^[a-z]+$/.test(s))) return uris;
    }
  }
  const list = '/etc/apt/sources.list';
  const line = existsSync(list) && /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+[a-z]+\s/m.exec(readFileSync(list, 'utf8'));
  if (line) return line[1];
  throw new Error('no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list');
}

/** A private apt configuration under `dir`: its own sources, state and cache. */
function aptConfig(dir, arch) {
  for (const sub of ['state/lists/partial', 'cache/archives/partial', 'etc/sources.list.d', 'etc/preferences.d']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'etc/sources.list'), `deb [signed-by=${KEYRING}] ${systemMirror()} ${SUITE} main\n`);
  writeFileSync(join(dir, 'state/status'), '');
  const conf = join(dir, 'etc/apt.conf');
  writeFileSync(
    conf,
    [
      `Dir::State "${dir}/state";`,
      `Dir::State::status "${dir}/state/status";`,
      `Dir::Cache "${dir}/cache";`,
      `Dir::Etc::SourceList "${dir}/etc/sources.list";`,
      `Dir::Etc::SourceParts "${dir}/etc/sources.list.d";`,
      `Dir::Etc::Preferences "${dir}/etc/preferences";`,
      `Dir::Etc::PreferencesParts "${dir}/etc/preferences.d";`,
      `APT::Architecture "${arch}";`,
      `APT::Architectures { "${arch}"; };`,
      'Acquire::Languages "none";',
      // apt drops to _apt for downloads, which cannot write into a root-owned work tree.
      'APT::Sandbox::User "root";',
      '',
    ].join('\n'),
  );
  return conf;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Downloads libjxl-devtools and everything it depends on from trixie, extracted under `root`. */
function install(dir, root, arch) {
  const env = { ...process.env, APT_CONFIG: aptConfig(join(dir, 'apt'), arch) };
  console.log(`ssimulacra2: fetching ${TOOL_PACKAGE} and its libraries from Debian ${SUITE}`);
  run('apt-get', ['update', '-qq'], { env });
  const depends = run('apt-cache', ['depends', '--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances', TOOL_PACKAGE], { env });
  // Lines without indentation are packages; <virtual> ones are provided by a real package listed too.
  const packages = [...new Set(depends.split('\n').filter((l) => l && !l.startsWith(' ') && !l.startsWith('<')))].sort();
  const debs = join(dir, 'debs');
  rmSync(debs, { recursive: true, force: true });
  mkdirSync(debs, { recursive: true });
  run('apt-get', ['download', '-qq', ...packages], { env, cwd: debs });
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
  if (!existsSync(join(root, 'versions.json'))) install(dir, root, arch);
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
