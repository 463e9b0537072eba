import { relative } from 'node:path';
import type { Squeeze } from '@squeeze-edge/client';
import { EXIT } from '../exit-codes.js';
import type { Job } from '../plan.js';
import { formatBytes, type Reporter } from '../report.js';
import { summarize, type FileRecord, type RunReport } from '../summary.js';
import { shown } from '../terminal-text.js';

/**
 * What a run would send, and the quota it needs against the quota left (asked of GET /v1/usage when a key
 * is configured; that call counts toward the per-minute limit only). Exit 3 when the quota left is too small.
 */
export async function dryRun(jobs: Job[], client: Squeeze | undefined, cwd: string, reporter: Reporter): Promise<RunReport> {
  const files: FileRecord[] = jobs.map((job) => {
    if (job.problem) {
      reporter.line(`would fail ${shown(job.display)}: ${shown(job.problem.message)}`);
      return { input: job.display, status: 'failed', originalSize: job.size, error: { code: job.problem.code, message: job.problem.message } };
    }
    if (job.done) return { input: job.display, status: 'skipped', originalSize: job.size };
    const outputs = Object.values(job.outputs).map((o) => relative(cwd, o));
    reporter.line(`would send ${shown(job.display)} (${formatBytes(job.size)}) → ${outputs.map(shown).join(' or ')}`);
    return { input: job.display, status: 'would_send', originalSize: job.size, output: outputs[0] };
  });
  const needed = files.filter((f) => f.status === 'would_send').length;
  let quota: NonNullable<RunReport['quota']> = { needed, left: null, limit: null, resetAt: null };
  if (client && needed > 0) {
    const usage = await client.usage();
    quota = { needed, left: Math.max(0, usage.usage.limit - usage.usage.current), limit: usage.usage.limit, resetAt: usage.usage.resetAt };
  }
  const short = quota.left !== null && quota.left < needed;
  reporter.line(
    `Needs ${needed} compression${needed === 1 ? '' : 's'}` +
      (quota.left === null ? (needed ? ' (quota left unknown: no endpoint configured)' : '') : ` of ${quota.left} left this month (resets ${shown(String(quota.resetAt))})`) +
      (short ? `: ${needed - quota.left!} too many.` : '.'),
  );
  const summary = summarize(files);
  const exitCode = short ? EXIT.stopped : summary.failed ? EXIT.someFailed : EXIT.ok;
  return { command: 'compress', dryRun: true, exitCode, stoppedBy: null, files, summary, quota };
}
