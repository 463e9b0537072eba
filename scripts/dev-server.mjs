// Starts `wrangler dev` for the browser, load and restart scripts: on loopback, free ports, a local state
// of its own (migrations applied first), in local mode (mail to the outbox), and stops it again, workerd included.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations, localModeVars, wranglerBin, wranglerEnv } from './wrangler.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(preferred) {
  if (preferred && (await portIsFree(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer /health within ${timeoutMs} ms:\n${output.join('')}`);
}

/** Every server started and not yet stopped, so an interrupted run can end them even mid-start. */
const running = new Set();

export function stopAllWranglerDev() {
  return Promise.all([...running].map((stop) => stop()));
}

/**
 * A running `wrangler dev` on 127.0.0.1; `stop()` ends it. Without `state` it gets a fresh one that
 * `stop()` removes; a given `state` is the caller's and is kept (the restart test starts twice on one).
 */
export async function startWranglerDev({ state: givenState, preferredPort = 8799, timeoutMs = 90_000 } = {}) {
  const state = givenState ?? (await mkdtemp(join(tmpdir(), 'squeeze-dev-state-')));
  const output = [];
  let child;
  let stopped = false;
  const stop = async () => {
    stopped = true;
    running.delete(stop);
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (!givenState) await rm(state, { recursive: true, force: true });
  };
  running.add(stop);

  try {
    applyMigrations(false, state);
    const port = await freePort(preferredPort);
    const inspectorPort = await freePort();
    if (stopped) throw new Error('stopped while starting');
    const url = `http://127.0.0.1:${port}`;
    const args = ['dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort), '--persist-to', state, '--show-interactive-dev-session=false', ...localModeVars(url)];
    // Its own process group, so stopping it also ends workerd, which wrangler starts as a child.
    child = spawn(process.execPath, [wranglerBin, ...args], { cwd: root, env: wranglerEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    await waitForHealth(url, child, output, timeoutMs);
    return { url, output, stop, state, pid: child.pid };
  } catch (err) {
    await stop();
    throw err;
  }
}
