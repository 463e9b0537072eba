import { mkdir } from 'node:fs/promises';
import { basename, dirname, relative } from 'node:path';
import { isSqueezeError, type CompressResult, type Squeeze } from '@squeeze-edge/client';
import { copyFileAtomic, fileBlob, writeFileAtomic } from '@squeeze-edge/client/node';
import { compressOptions, type Args } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { hashBytes } from '../hash.js';
import type { Manifest } from '../manifest.js';
import { staysInside } from '../output-tree.js';
import { optionsKey, type Job } from '../plan.js';
import { RateLimitPace, runPool } from '../pool.js';
import { formatBytes, type Reporter } from '../report.js';
import { summarize, type FileRecord, type RunReport } from '../summary.js';
import { shown } from '../terminal-text.js';

export interface RunContext {
  args: Args;
  cwd: string;
  reporter: Reporter;
  manifest: Manifest;
  signal: AbortSignal;
}

const STOPPING_CODES = ['unauthorized', 'quota_exceeded'] as const;

function recordFor(job: Job): FileRecord {
  return { input: job.display, status: 'not_done', originalSize: job.size };
}

/**
 * Sends every job that is not done through a bounded pool, writes each output atomically and records it in
 * the manifest (a 413 too, so that the file is not sent again unchanged); stops starting new uploads on
 * `unauthorized` or `quota_exceeded`, said once however many uploads were in flight, and on Ctrl-C.
 */
export async function compressJobs(jobs: Job[], client: Squeeze, ctx: RunContext): Promise<RunReport> {
  const { args, cwd, reporter, manifest, signal } = ctx;
  const records = new Map(jobs.map((job) => [job, recordFor(job)]));
  const toSend: Job[] = [];
  for (const job of jobs) {
    const record = records.get(job)!;
    if (job.problem) {
      Object.assign(record, { status: 'failed', error: { code: job.problem.code, message: job.problem.message } });
      reporter.line(`✗ ${shown(job.display)}: ${shown(job.problem.message)}`);
    } else if (job.done) {
      record.status = 'skipped';
    } else {
      toSend.push(job);
    }
  }
  const pace = new RateLimitPace(client);
  let stoppedBy = undefined as RunReport['stoppedBy'] | undefined;
  let finished = 0;
  let saved = 0;
  const options = optionsKey(args);
  const progress = (current: string) =>
    reporter.status(`[${finished}/${toSend.length}] ${formatBytes(saved)} saved${client.pausedFor > 0 ? ' · paused (rate limit)' : ''} · ${shown(current)}`);

  await runPool(toSend, { concurrency: args.concurrency, pace, stop: () => stoppedBy !== undefined, signal }, async (job) => {
    const record = records.get(job)!;
    progress(job.display);
    let result: CompressResult;
    try {
      result = await client.compress(await fileBlob(job.input), { ...compressOptions(args), signal });
    } catch (err) {
      if (signal.aborted) return;
      if (isSqueezeError(err)) pace.observe(err.rateLimit);
      if (isSqueezeError(err, ...STOPPING_CODES)) {
        if (stoppedBy === undefined) reporter.line(`✗ stopped: ${shown(err.message)}`);
        stoppedBy ??= err.code;
        return;
      }
      const error = isSqueezeError(err) ? { code: err.code, message: err.message } : { code: 'error', message: String((err as Error)?.message ?? err) };
      if (isSqueezeError(err) && err.status === 413 && !err.local) {
        await manifest.recordRefusal(job.input, { inputHash: job.hash, options, code: err.code, message: err.message });
      }
      Object.assign(record, { status: 'failed', error });
      finished++;
      reporter.line(`✗ ${shown(job.display)}: ${shown(error.message)}`);
      return;
    }
    pace.observe(result.rateLimit);
    const output = job.outputs[result.format];
    try {
      if (!output) throw new Error(`the API answered ${result.format}, which these options did not expect`);
      if (job.backup) await copyFileAtomic(job.input, job.backup);
      await mkdir(dirname(output), { recursive: true });
      // Checked again as it is written: a folder may have become a link since the plan.
      if (job.tree !== undefined && !(await staysInside(output, job.tree))) throw new Error(`${shown(output)} is in a folder that leads outside ${shown(job.tree)}`);
      await writeFileAtomic(output, result.image);
      await manifest.record(job.input, output, {
        inputHash: job.hash,
        outputHash: hashBytes(result.image),
        options,
        originalSize: result.originalSize,
        compressedSize: result.compressedSize,
      });
    } catch (err) {
      Object.assign(record, { status: 'failed', error: { code: 'write_failed', message: (err as Error).message } });
      finished++;
      reporter.line(`✗ ${shown(job.display)}: ${shown((err as Error).message)}`);
      return;
    }
    Object.assign(record, {
      status: 'compressed',
      output: relative(cwd, output),
      compressedSize: result.compressedSize,
      savingsPercent: result.savingsPercent,
      format: result.format,
      notes: result.notes,
    });
    finished++;
    saved += result.savedBytes;
    // An output beside its input is named by its file name alone, to keep the line short.
    const outputName = dirname(output) === dirname(job.input) ? basename(output) : relative(cwd, output);
    const change = `${result.savingsPercent > 0 ? '−' : result.savingsPercent < 0 ? '+' : ''}${Math.abs(result.savingsPercent)}%`;
    reporter.line(`✓ ${shown(job.display)} → ${shown(outputName)}  ${formatBytes(result.originalSize)} → ${formatBytes(result.compressedSize)} (${change})`);
    progress(job.display);
  });
  reporter.end();
  if (signal.aborted) stoppedBy = 'interrupted';
  const files = [...records.values()];
  const summary = summarize(files);
  const exitCode = stoppedBy === 'interrupted' ? EXIT.interrupted : stoppedBy ? EXIT.stopped : summary.failed ? EXIT.someFailed : EXIT.ok;
  return { command: 'compress', dryRun: false, exitCode, stoppedBy: stoppedBy ?? null, files, summary };
}
