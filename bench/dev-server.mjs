import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A `npm start` of its own for the load and restart scripts: a given port and local state, so a run
 * never touches the developer's data, and the CPU time of its process tree can be read from /proc.
 */
const startScript = fileURLToPath(new URL('../scripts/start.mjs', import.meta.url));

export async function startDevServer({ port, state }) {
  const base = `http://127.0.0.1:${port}`;
  if (await answers(base)) throw new Error(`${base} is already in use: stop that server first`);
  const child = spawn(process.execPath, [startScript, '--port', String(port)], {
    env: { ...process.env, SQUEEZE_STATE: state },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode !== null) throw new Error(`the dev server exited:\n${log}`);
    if (await answers(base)) return { base, child, stop: () => stopTree(child), cpuMs: () => treeCpuMs(child.pid) };
  }
  stopTree(child);
  throw new Error(`the dev server did not start within 60 s:\n${log}`);
}

async function answers(base) {
  try {
    return (await fetch(`${base}/health`)).ok;
  } catch {
    return false;
  }
}

function stopTree(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
}

/** User + system CPU time of a process and all its descendants (workerd runs under wrangler), in ms. */
export function treeCpuMs(rootPid) {
  const ticksPerSecond = 100;
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // exited meanwhile
    }
  }
  const inTree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) grew = inTree.add(p.pid) !== undefined;
  }
  return (procs.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0) * 1000) / ticksPerSecond;
}
