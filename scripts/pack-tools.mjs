// Packs the client and the CLI into the npm-installable tarballs that every deployment serves to its own
// users from its static assets: /downloads/squeeze-client.tgz, and /downloads/squeeze-cli.tgz with the
// client bundled inside it, so that `npm install -g <origin>/downloads/squeeze-cli.tgz` needs no registry.
// Run by `npm start`, `npm run build` and `npm run deploy` before wrangler; offline (npm pack reads only
// this checkout). The tarballs are build output, not committed (public/downloads/ is ignored).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DOWNLOADS = join(root, 'public', 'downloads');
const TARBALLS = ['squeeze-client.tgz', 'squeeze-cli.tgz'].map((name) => join(DOWNLOADS, name));
/** The digest of what the served tarballs were made from, so that an unchanged build is not packed again. */
const STAMP = join(root, 'node_modules', '.cache', 'squeeze-tools.sha256');

/** A digest of every file that goes into the tarballs (what `files` names in each package, and package.json). */
function sourcesDigest() {
  const hash = createHash('sha256');
  for (const pkg of ['client', 'cli']) {
    for (const entry of ['package.json', 'README.md', 'LICENSE', 'bin', 'dist']) {
      const path = join(root, 'packages', pkg, entry);
      if (!existsSync(path)) continue;
      const files = statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).map((f) => join(path, f)).filter((f) => statSync(f).isFile()) : [path];
      for (const file of files.sort()) hash.update(`${file}\0`).update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

/** npm itself: the one running this script when there is one (npm_execpath), else the one on the PATH. */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  const [command, prefix] = cli && cli.endsWith('.js') ? [process.execPath, [cli]] : ['npm', []];
  return execFileSync(command, [...prefix, ...args, '--offline', '--ignore-scripts', '--json', '--loglevel=error'], { cwd, encoding: 'utf8' });
}

/** `npm pack` of the package in `cwd` (or of workspace `-w name`) into `into`: the tarball's path. */
function pack(cwd, into, workspace) {
  const out = npm(['pack', '--pack-destination', into, ...(workspace ? ['-w', workspace] : [])], cwd);
  return join(into, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
}

/** Unpacks an npm tarball's `package/` folder as `dest`. */
function unpack(tarball, dest, work) {
  const tmp = mkdtempSync(join(work, 'unpack-'));
  execFileSync('tar', ['-xzf', tarball, '-C', tmp]);
  renameSync(join(tmp, 'package'), dest);
}

/** Copies `from` to `to` through a temporary file, so that a running dev server never serves half a tarball. */
function publish(from, to) {
  const temp = `${to}.tmp`;
  copyFileSync(from, temp);
  renameSync(temp, to);
}

/** Builds both packages and packs them into public/downloads/ (unless that is done for this build already). */
export function packTools() {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/client', 'packages/cli'], { cwd: root, stdio: 'inherit' });
  const digest = sourcesDigest();
  if (TARBALLS.every((t) => existsSync(t)) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) return false;
  const work = mkdtempSync(join(tmpdir(), 'squeeze-pack-tools-'));
  try {
    const client = pack(root, work, '@squeeze-edge/client');
    const cliDir = join(work, 'cli');
    unpack(pack(root, work, '@squeeze-edge/cli'), cliDir, work);
    mkdirSync(join(cliDir, 'node_modules', '@squeeze-edge'), { recursive: true });
    unpack(client, join(cliDir, 'node_modules', '@squeeze-edge', 'client'), work);
    const manifest = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8'));
    manifest.bundleDependencies = ['@squeeze-edge/client'];
    writeFileSync(join(cliDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const cli = pack(cliDir, work);
    mkdirSync(DOWNLOADS, { recursive: true });
    publish(client, TARBALLS[0]);
    publish(cli, TARBALLS[1]);
    mkdirSync(dirname(STAMP), { recursive: true });
    writeFileSync(STAMP, digest);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// One line when it packed; nothing when the tarballs were already those of this build (npm start stays quiet).
if (process.argv[1] === fileURLToPath(import.meta.url) && packTools()) {
  console.log('Packed the client and the CLI into public/downloads/ (served at /downloads/squeeze-cli.tgz and /downloads/squeeze-client.tgz).');
}
