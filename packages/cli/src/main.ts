import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { isSqueezeError } from '@squeeze-edge/client';
import { removeTempFiles } from '@squeeze-edge/client/node';
import { HELP, parseCommandLine, type Args } from './args.js';
import { check } from './commands/check.js';
import { compressJobs } from './commands/compress.js';
import { dryRun } from './commands/dry-run.js';
import { compressStdin } from './commands/stdin.js';
import { usageText } from './commands/usage.js';
import { makeClient, type Env } from './config.js';
import { EXIT, UsageError } from './exit-codes.js';
import { Manifest, manifestPathFor } from './manifest.js';
import { listInputs, makePlan } from './plan.js';
import { Reporter, type Output } from './report.js';
import { summaryText } from './summary.js';
import { jsonText, printable, shown } from './terminal-text.js';

export const VERSION: string = createRequire(import.meta.url)('../package.json').version;

export interface Io {
  env: Env;
  cwd: string;
  stdin: NodeJS.ReadableStream;
  stdout: Output;
  stderr: Output;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

async function runCommand(args: Args, io: Io, reporter: Reporter, printJson: (doc: unknown) => void): Promise<number> {
  const { env, cwd, signal } = io;
  if (args.command === 'help') {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (args.command === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (args.command === 'usage') {
    const usage = await (await makeClient(args, env, cwd)).usage({ signal });
    if (args.json) printJson(usage);
    else io.stdout.write(`${printable(usageText(usage))}\n`);
    return EXIT.ok;
  }
  if (args.paths[0] === '-') {
    await compressStdin(args, await makeClient(args, env, cwd), io.stdin, io.stdout, reporter, signal);
    return EXIT.ok;
  }
  // Configuration first: a run that cannot send anything fails before reading a file. A dry run with no
  // endpoint configured still lists what it would send, without the quota left.
  const unconfiguredDryRun = args.dryRun && !(args.baseUrl ?? env.SQUEEZE_BASE_URL);
  const client = args.command === 'check' || unconfiguredDryRun ? undefined : await makeClient(args, env, cwd);
  const inputs = await listInputs(args, cwd);
  const manifestPath = args.noManifest ? undefined : args.manifest !== undefined ? resolve(cwd, args.manifest) : await manifestPathFor(inputs.outputRoot, cwd);
  const manifest = await Manifest.load(manifestPath, cwd);
  const jobs = await makePlan(args, cwd, inputs, manifest, signal);
  const report =
    args.command === 'check'
      ? check(jobs, reporter)
      : args.dryRun
        ? await dryRun(jobs, client, cwd, reporter)
        : await compressJobs(jobs, client!, { args, cwd, reporter, manifest, signal });
  if (!args.dryRun && args.command === 'compress') reporter.line(summaryText(report));
  if (args.json) printJson(report);
  return report.exitCode;
}

/** The exit code for an error that ended the run: 2 for usage, 3 for a stopping API error, 130 on Ctrl-C. */
function exitCodeFor(err: unknown, signal: AbortSignal): number {
  if (signal.aborted) return EXIT.interrupted;
  if (err instanceof UsageError) return EXIT.usage;
  if (isSqueezeError(err, 'unauthorized', 'quota_exceeded')) return EXIT.stopped;
  return EXIT.someFailed;
}

/** Runs squeeze with `argv`, returning the exit code; `io` defaults to this process. */
export async function main(argv: string[], io?: Partial<Io>): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) {
      // A second Ctrl-C: leave now, without half-written files.
      void removeTempFiles().finally(() => process.exit(EXIT.interrupted));
    }
    controller.abort(new Error('interrupted'));
  };
  if (!io?.signal) process.on('SIGINT', onSigint);
  const full: Io = {
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    ...io,
  };
  const reporter = new Reporter(full.stderr, full.env);
  let printed = false;
  const printJson = (doc: unknown) => {
    printed = true;
    full.stdout.write(`${jsonText(doc)}\n`);
  };
  const json = argv.includes('--json');
  try {
    const args = parseCommandLine(argv);
    return await runCommand(args, full, reporter, printJson);
  } catch (err) {
    reporter.end();
    const code = exitCodeFor(err, full.signal);
    const message = code === EXIT.interrupted ? 'Interrupted.' : (err as Error)?.message ?? String(err);
    // A usage error is ours (names in it are shown already); any other message may be a server's.
    reporter.line(code === EXIT.usage ? `squeeze: ${message}` : `✗ ${shown(message)}`);
    if (json && !printed) printJson({ exitCode: code, error: { code: isSqueezeError(err) ? err.code : code === EXIT.usage ? 'usage' : 'error', message } });
    return code;
  } finally {
    await removeTempFiles();
    process.off('SIGINT', onSigint);
  }
}
