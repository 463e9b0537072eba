// The tools as a user of any deployment gets them (issue 21, item 1): the Worker serves the tarballs that
// `npm start` packs, /getting-started shows the install commands for its own origin, and those commands, run
// as shown from an empty folder with nothing but Node (no registry, no checkout, an empty npm cache), install
// a `squeeze` that compresses a folder and a client that runs and type-checks, its README examples included.
// Both packages are also ready for the registry.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sniffFormat } from '@squeeze-edge/client';
import { launchChromium } from '../../test/e2e/browser.mjs';
import { fixturePath, imageTree } from './helpers/fixtures';
import { createKey } from './helpers/keys';
import { root } from './helpers/paths';

const work = mkdtempSync(join(tmpdir(), 'squeeze-tools-'));
const home = join(work, 'home');
const prefix = join(work, 'global');
let node: string;
let commands: { cli: string; client: string };

/** The machine's Node, not the Node 22 that npm scripts put first on the PATH. */
function machineNode(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir.includes('node_modules') && existsSync(candidate)) return candidate;
  }
  throw new Error('no node on the PATH outside node_modules');
}

/**
 * A shell with only the machine's Node (and its npm) and the global prefix on the PATH, a home and an npm
 * cache of its own, and a registry that cannot be reached: nothing can come from anywhere but the Worker.
 */
function shell(command: string, cwd: string, env: Record<string, string> = {}): string {
  return execFileSync('bash', ['-euo', 'pipefail', '-c', command], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: [join(prefix, 'bin'), dirname(node), '/usr/bin', '/bin'].join(delimiter),
      HOME: home,
      npm_config_prefix: prefix,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...env,
    },
  });
}

/** The code blocks of a Markdown file written in `lang`. */
function codeBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

beforeAll(async () => {
  node = machineNode();
  mkdirSync(home);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${inject('baseUrl')}/getting-started`);
    commands = { cli: await page.locator('#install-cli').innerText(), client: await page.locator('#install-client').innerText() };
  } finally {
    await browser.close();
  }
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the tools a deployment serves', () => {
  it('are packed (offline: npm pack of this checkout) before npm start, npm run build and npm run deploy', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const name of ['start', 'build', 'deploy']) expect(scripts[name], name).toMatch(/^node scripts\/pack-tools\.mjs && /);
  });

  it('/getting-started shows the install commands for the origin it is served from', () => {
    expect(commands).toEqual({
      cli: `npm install -g ${inject('baseUrl')}/downloads/squeeze-cli.tgz`,
      client: `npm install ${inject('baseUrl')}/downloads/squeeze-client.tgz`,
    });
  });

  it('the CLI installs from that one URL with nothing but Node, and `squeeze photos/` works', async () => {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(Number(version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(20);
    const empty = join(work, 'empty');
    mkdirSync(empty);
    shell(commands.cli, empty);
    expect(shell('squeeze --version', empty).trim()).toBe('0.1.0');

    const dir = imageTree({ 'photos/chelsea.png': 'api/chelsea.png', 'photos/2024/testorig.jpg': 'engine/testorig.jpg' });
    try {
      const out = shell('squeeze photos/ --json', dir, { SQUEEZE_API_KEY: createKey('free'), SQUEEZE_BASE_URL: inject('baseUrl') });
      expect(JSON.parse(out).summary).toMatchObject({ compressed: 2, failed: 0 });
      expect(sniffFormat(readFileSync(join(dir, 'photos/2024/testorig.min.jpg')))).toBe('jpeg');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the client installs into a project by itself, runs from a plain ESM script, and its README examples pass tsc --strict', () => {
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    shell(commands.client, app);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages).filter(Boolean)).toEqual(['node_modules/@squeeze-edge/client']);

    writeFileSync(
      join(app, 'use.mjs'),
      `import { Squeeze, SqueezeError } from '@squeeze-edge/client';
import { fileBlob } from '@squeeze-edge/client/node';
const squeeze = new Squeeze({ apiKey: process.env.KEY, baseUrl: process.env.BASE });
const result = await squeeze.compress(await fileBlob(process.argv[2]), { quality: 70 });
const usage = await squeeze.usage();
let refused;
try { await squeeze.compress(new Uint8Array([1, 2, 3])); } catch (err) { refused = err instanceof SqueezeError && err.code; }
console.log(JSON.stringify({ format: result.format, saved: result.savedBytes > 0, used: usage.usage.current, refused }));
`,
    );
    const out = shell(`node use.mjs ${fixturePath('api/chelsea.png')}`, app, { KEY: createKey('free'), BASE: inject('baseUrl') });
    expect(JSON.parse(out)).toEqual({ format: 'png', saved: true, used: 1, refused: 'unsupported_image' });

    // Every TypeScript example of the READMEs, as written, compiled strictly against the installed package.
    const examples = [join(root, 'README.md'), join(root, 'packages/client/README.md')].flatMap((file) => codeBlocks(readFileSync(file, 'utf8'), 'ts'));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const files = examples.map((source, i) => {
      writeFileSync(join(app, `readme-${i}.ts`), source);
      return `readme-${i}.ts`;
    });
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], noEmit: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')], skipLibCheck: false },
        files,
      }),
    );
    execFileSync(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app, encoding: 'utf8' });
  });
});

describe('ready for the registry', () => {
  it.each([
    ['@squeeze-edge/client', ['LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/node.d.ts', 'dist/node.js', 'package.json']],
    ['@squeeze-edge/cli', ['LICENSE', 'README.md', 'bin/squeeze.js', 'dist/main.js', 'package.json']],
  ])('%s: npm publish --dry-run is clean, with the files, exports, types, licence and engines it needs', (name, needed) => {
    const result = spawnSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', '-w', name], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(0);
    // A dry run without an npm login says so; nothing else may warn (no field npm had to correct).
    const warnings = result.stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
    const paths = (JSON.parse(result.stdout)[name] as { files: { path: string }[] }).files.map((f) => f.path);
    for (const file of needed) expect(paths).toContain(file);
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.includes('tsbuildinfo') || (name.endsWith('cli') && p.endsWith('.d.ts')))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(root, 'packages', name.split('/')[1]!, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ license: 'MIT', type: 'module', engines: { node: '>=20.3' }, publishConfig: { access: 'public' } });
    if (name.endsWith('client')) expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  });
});
