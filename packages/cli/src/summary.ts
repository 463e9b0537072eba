import { formatBytes } from './report.js';

/** One input's outcome, as --json prints it. */
export interface FileRecord {
  input: string;
  /** compressed; skipped (done before, by the manifest); failed; not_done (stopped or interrupted first); would_send (--dry-run). */
  status: 'compressed' | 'skipped' | 'failed' | 'not_done' | 'would_send';
  originalSize: number;
  output?: string;
  compressedSize?: number;
  savingsPercent?: number;
  format?: string;
  notes?: string[];
  error?: { code: string; message: string };
}

export interface Summary {
  files: number;
  compressed: number;
  skipped: number;
  failed: number;
  notDone: number;
  /** Sizes of the files compressed in this run. */
  bytesIn: number;
  bytesOut: number;
  savedBytes: number;
  savedPercent: number;
}

/** The one JSON document of `squeeze --json` (compress, dry run or check). */
export interface RunReport {
  command: 'compress' | 'check';
  dryRun: boolean;
  exitCode: number;
  stoppedBy: 'unauthorized' | 'quota_exceeded' | 'interrupted' | null;
  files: FileRecord[];
  summary: Summary;
  quota?: { needed: number; left: number | null; limit: number | null; resetAt: string | null };
}

export function summarize(files: FileRecord[]): Summary {
  const count = (status: FileRecord['status']) => files.filter((f) => f.status === status).length;
  const compressed = files.filter((f) => f.status === 'compressed');
  const bytesIn = compressed.reduce((n, f) => n + f.originalSize, 0);
  const bytesOut = compressed.reduce((n, f) => n + (f.compressedSize ?? 0), 0);
  return {
    files: files.length,
    compressed: compressed.length,
    skipped: count('skipped'),
    failed: count('failed'),
    notDone: count('not_done') + count('would_send'),
    bytesIn,
    bytesOut,
    savedBytes: bytesIn - bytesOut,
    savedPercent: bytesIn ? Math.round((100 * (bytesIn - bytesOut)) / bytesIn) : 0,
  };
}

/** The closing lines for people: what was done, what was saved, what is left. */
export function summaryText(report: RunReport): string {
  const s = report.summary;
  const parts = [
    `${s.compressed} compressed${s.compressed ? `: ${formatBytes(s.bytesIn)} → ${formatBytes(s.bytesOut)}, saved ${formatBytes(s.savedBytes)} (${s.savedPercent}%)` : ''}`,
  ];
  if (s.skipped) parts.push(`${s.skipped} skipped (done before)`);
  if (s.failed) parts.push(`${s.failed} failed`);
  if (s.notDone) parts.push(`${s.notDone} not done`);
  const stopped = report.stoppedBy === 'interrupted' ? ' Interrupted.' : report.stoppedBy ? ` Stopped by ${report.stoppedBy}.` : '';
  return `${parts.join('; ')}.${stopped}`;
}
