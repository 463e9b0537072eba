/** The documented exit codes of `squeeze` (README, --help). */
export const EXIT = {
  /** Everything done, or nothing to do. */
  ok: 0,
  /** Some files failed; the others were done. */
  someFailed: 1,
  /** Bad usage or configuration: nothing was sent. */
  usage: 2,
  /** Stopped by `unauthorized` or `quota_exceeded` (or, for --dry-run, a quota too small). */
  stopped: 3,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

/** Bad usage or configuration, found before anything was sent: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
