import { EXIT } from '../exit-codes.js';
import type { Job } from '../plan.js';
import type { Reporter } from '../report.js';
import { shown } from '../terminal-text.js';
import { summarize, type FileRecord, type RunReport } from '../summary.js';

/**
 * The CI gate: every image under the paths is done with these options, as the manifest records (content
 * hashes), or exit 1 listing those that are not. No key, no API call.
 */
export function check(jobs: Job[], reporter: Reporter): RunReport {
  const files: FileRecord[] = jobs.map((job) => {
    if (job.done) return { input: job.display, status: 'skipped', originalSize: job.size };
    const error = job.problem ? { code: job.problem.code, message: job.problem.message } : undefined;
    reporter.line(`not done: ${shown(job.display)}${error ? ` (${shown(error.message)})` : ''}`);
    return { input: job.display, status: job.problem ? 'failed' : 'not_done', originalSize: job.size, error };
  });
  const summary = summarize(files);
  const pending = files.length - summary.skipped;
  reporter.line(pending ? `${pending} of ${files.length} images not done: run squeeze with the same options.` : `All ${files.length} images are done.`);
  return { command: 'check', dryRun: false, exitCode: pending ? EXIT.someFailed : EXIT.ok, stoppedBy: null, files, summary };
}
