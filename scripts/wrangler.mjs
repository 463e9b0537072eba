import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The local state that `npm start`, the operator commands and the migrations step all share. SQUEEZE_STATE moves
 * it, so that the load and restart scripts can run against a state of their own.
 */
export const LOCAL_STATE = process.env.SQUEEZE_STATE ?? '.wrangler/state';
const root = fileURLToPath(new URL('..', import.meta.url));
export const wranglerBin = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
// No telemetry or update checks: the machine may have no network at all.
export const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: process.env.CI ?? '1', NO_COLOR: '1' };

/**
 * The operator token of local mode: `npm run key` and `npm run account` send it to the local Worker's
 * /operator/* (src/routes/operator.ts), which listens on loopback only. A deployed Worker has its own
 * secret (README, "Operator commands").
 */
export const LOCAL_OPERATOR_TOKEN = 'local-operator';

/**
 * Local mode, for `npm start` and the scripts' dev servers: mail goes to the Worker's outbox (the link is
 * printed in the terminal and served at /dev/outbox to loopback clients) instead of being sent.
 */
export const LOCAL_MODE_VARS = ['--var', 'MAIL_TRANSPORT:outbox', '--var', `OPERATOR_TOKEN:${LOCAL_OPERATOR_TOKEN}`];

/** Runs wrangler with the project's Node (22, from the `node` devDependency) and captures its output. */
export function runWrangler(args) {
  const result = spawnSync(process.execPath, [wranglerBin, ...args], { cwd: root, env: wranglerEnv, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`wrangler ${args.join(' ')} failed with exit code ${result.status}`);
  }
  return result.stdout;
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
