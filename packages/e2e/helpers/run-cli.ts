import { spawn } from 'node:child_process';
import { squeezeBin } from './paths';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `squeeze` binary in `cwd` with this environment (no CI variable: none is inherited). */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string>; stdin?: Uint8Array; node?: string; bin?: string }): Promise<CliRun & { stdoutBytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [options.bin ?? squeezeBin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, stdout: stdoutBytes.toString(), stdoutBytes, stderr: Buffer.concat(err).toString() });
    });
    child.stdin.end(options.stdin ? Buffer.from(options.stdin) : undefined);
  });
}
