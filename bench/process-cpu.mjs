import { readdirSync, readFileSync } from 'node:fs';

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
