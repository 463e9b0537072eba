import { spawn, spawnSync } from 'node:child_process';
import { hostname, networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * The local state that `npm start`, the operator commands and the migrations step all share. SQUEEZE_STATE moves
 * it, so that the load and restart scripts can run against a state of their own.
 */
export const LOCAL_STATE = process.env.SQUEEZE_STATE ?? '.wrangler/state';
const root = fileURLToPath(new URL('..', import.meta.url));
export const wranglerBin = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
/**
 * Wrangler's documented switches, for a machine that may have no network: no telemetry and no notice about
 * it (unless WRANGLER_SEND_METRICS=true is set on purpose; send_metrics = false in wrangler.toml is not enough:
 * wrangler 4.164's deploy still sends its autoconfig events and then prints the notice), and no fetch of the
 * `Request.cf` placeholder from workers.cloudflare.com (the Worker reads no `request.cf`; offline that fetch
 * printed an ENOTFOUND stack trace on every start). Real errors still print.
 */
export const quietWranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};
/** The same for the scripts' own runs: no prompts, no colours in what the tests read. */
export const wranglerEnv = { ...quietWranglerEnv, CI: process.env.CI ?? '1', NO_COLOR: '1' };

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/;
export const isLoopbackHost = (host) => LOOPBACK.test(host);

/**
 * The origin a dev server listening on `ip`:`port` is reached at, for its links: the address itself, or for
 * 0.0.0.0 and :: (every interface) this machine's first external address (its host name if it has none).
 */
export function listeningOrigin(ip, port) {
  let host = ip;
  if (ip === '0.0.0.0' || ip === '::' || ip === '*') {
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal);
    host = (external.find((i) => i.family === 'IPv4') ?? external[0])?.address ?? hostname();
  }
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/**
 * The operator token of local mode: `npm run key` and `npm run account` send it to the local Worker's
 * /operator/* (src/routes/operator.ts). A deployed Worker has its own secret (README, "Operator commands").
 */
export const LOCAL_OPERATOR_TOKEN = 'local-operator';

/**
 * Local mode, for `npm start` and the scripts' dev servers: mail goes to the Worker's outbox instead of
 * being sent (the link is printed in the terminal), and links point at `origin`, where the server listens.
 * The Worker serves /dev/outbox only when that origin is a loopback one (src/routes/dev-outbox.tsx).
 */
export function localModeVars(origin) {
  return ['--var', 'MAIL_TRANSPORT:outbox', '--var', `PUBLIC_ORIGIN:${origin}`, '--var', `OPERATOR_TOKEN:${LOCAL_OPERATOR_TOKEN}`];
}

/**
 * How long a D1 command waits for a write lock that another process holds on the local D1 (the Worker of
 * `npm start` holds it for a moment as it writes), as SQLite's busy timeout would. A refused command changed
 * nothing (wrangler runs a command's statements as one batch, one transaction), so it is run again.
 */
const D1_BUSY_WAIT_MS = 30_000;
const D1_BUSY_PAUSE_MS = 200;

/** Runs wrangler with the project's Node (22, from the `node` devDependency) and captures its output. */
export function runWrangler(args) {
  const busyUntil = Date.now() + D1_BUSY_WAIT_MS;
  for (let waited = false; ; waited = true) {
    const result = spawnSync(process.execPath, [wranglerBin, ...args], { cwd: root, env: wranglerEnv, encoding: 'utf8' });
    if (result.status === 0) return result.stdout;
    const output = result.stdout + result.stderr;
    if (!output.includes('SQLITE_BUSY') || Date.now() > busyUntil) {
      process.stderr.write(output);
      throw new Error(`wrangler ${args.join(' ')} failed with exit code ${result.status}`);
    }
    if (!waited) console.error('The local D1 is busy: another process (npm start?) is writing to it. Waiting for it...');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, D1_BUSY_PAUSE_MS);
  }
}

/** Starts wrangler attached to this terminal, forwards signals to it and exits with it. */
export function startWrangler(args) {
  const child = spawn(process.execPath, [wranglerBin, ...args], { cwd: root, env: wranglerEnv, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/** Where D1 commands act: a local state (the shared one by default), or the deployed database with --remote. */
export function d1Target(remote, state = LOCAL_STATE) {
  return remote ? ['--remote'] : ['--local', '--persist-to', state];
}

/** Applies the migrations in migrations/ that the chosen D1 has not had yet (CI=1: without a prompt). */
export function applyMigrations(remote = false, state = LOCAL_STATE) {
  runWrangler(['d1', 'migrations', 'apply', 'DB', ...d1Target(remote, state)]);
}
