// `npm pack` of both packages gives tarballs that install together, offline, in an empty folder, and run
// there with the machine's own Node (20 or later) and nothing else from this repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sniffFormat } from '@squeeze-edge/client';
import { fixturePath, imageTree } from './helpers/fixtures';
import { createKey } from './helpers/keys';
import { root } from './helpers/paths';
import { runCli } from './helpers/run-cli';

const work = mkdtempSync(join(tmpdir(), 'squeeze-pack-'));
const app = join(work, 'app');
let node: string;
let tarballs: { client: string; cli: string };

/** The machine's Node, not the Node 22 that npm scripts put first on the PATH. */
function machineNode(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir.includes('node_modules') && existsSync(candidate)) return candidate;
  }
  throw new Error('no node on the PATH outside node_modules');
}

function pack(workspace: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work, '-w', workspace], { cwd: root, encoding: 'utf8' });
  const [{ filename, files }] = JSON.parse(out.slice(out.indexOf('[')));
  const paths = (files as { path: string }[]).map((f) => f.path);
  expect(paths).toContain('package.json');
  expect(paths).toContain('README.md');
  expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.includes('tsbuildinfo'))).toEqual([]);
  return join(work, filename);
}

beforeAll(() => {
  node = machineNode();
  tarballs = { client: pack('@squeeze-edge/client'), cli: pack('@squeeze-edge/cli') };
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  // No registry: an unreachable one, and --offline. Both tarballs at once, so the CLI's dependency on the
  // client is met by the client's tarball.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--registry', 'http://127.0.0.1:9/', tarballs.client, tarballs.cli], {
    cwd: app,
    encoding: 'utf8',
  });
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarballs, installed in an empty folder', () => {
  it('run with the machine’s Node (20 or later)', () => {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(Number(version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(20);
    expect(execFileSync(node, [join(app, 'node_modules/.bin/squeeze'), '--version'], { encoding: 'utf8' }).trim()).toBe('0.1.0');
    expect(execFileSync(node, [join(app, 'node_modules/.bin/squeeze'), '--help'], { encoding: 'utf8' })).toMatch(/Exit codes: 0 done/);
  });

  it('install nothing but themselves', () => {
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages).filter(Boolean).sort()).toEqual(['node_modules/@squeeze-edge/cli', 'node_modules/@squeeze-edge/client']);
  });

  it('the installed CLI compresses a folder against the API', async () => {
    const dir = imageTree({ 'img/chelsea.png': 'api/chelsea.png', 'img/sub/testorig.jpg': 'api/testorig.jpg' });
    try {
      const run = await runCli(['img', '--json'], {
        cwd: dir,
        node,
        bin: join(app, 'node_modules/@squeeze-edge/cli/bin/squeeze.js'),
        env: { SQUEEZE_API_KEY: createKey('free'), SQUEEZE_BASE_URL: inject('baseUrl') },
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).summary).toMatchObject({ compressed: 2 });
      expect(sniffFormat(readFileSync(join(dir, 'img/sub/testorig.min.jpg')))).toBe('jpeg');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the installed client, both entry points, works from a plain ESM script and type-checks from TypeScript', () => {
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
    const out = execFileSync(node, ['use.mjs', fixturePath('api/chelsea.png')], {
      cwd: app,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, KEY: createKey('free'), BASE: inject('baseUrl') },
    });
    expect(JSON.parse(out)).toEqual({ format: 'png', saved: true, used: 1, refused: 'unsupported_image' });

    writeFileSync(
      join(app, 'use.ts'),
      `import { Squeeze, isSqueezeError, type CompressResult } from '@squeeze-edge/client';
import { writeFileAtomic } from '@squeeze-edge/client/node';
export async function run(squeeze: Squeeze, bytes: Uint8Array): Promise<number> {
  try {
    const result: CompressResult = await squeeze.compress(bytes, { format: 'webp', maxWidth: 100 });
    await writeFileAtomic('out.webp', result.image);
    return result.rateLimit.minute?.remaining ?? 0;
  } catch (err) {
    if (isSqueezeError(err, 'quota_exceeded')) return -1;
    throw err;
  }
}
`,
    );
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], noEmit: true, types: [], skipLibCheck: false }, files: ['use.ts'] }));
    execFileSync(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app, encoding: 'utf8' });
  });
});
