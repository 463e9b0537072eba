import type { Env } from './config.js';
import { printable, shown } from './terminal-text.js';

export interface Output {
  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** 1 KB = 1024 bytes and 1 MB = 1,048,576 bytes, as the API counts (and labels: KB, as the site and the dashboard do). */
export function formatBytes(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1024) return `${n} B`;
  if (abs < 1_048_576) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1_048_576).toFixed(1)} MB`;
}

/** A progress line only on a terminal that can redraw one: not when piped, in CI or on TERM=dumb. */
export function wantsProgressLine(stderr: Output, env: Env): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
  return Boolean(stderr.isTTY) && !ci && env.TERM !== 'dumb';
}

/**
 * Human text, all on stderr (stdout is for data: the image of `squeeze -`, or --json). On a terminal, one
 * status line redrawn in place and cut to the width; elsewhere, plain lines.
 */
export class Reporter {
  readonly #err: Output;
  readonly #tty: boolean;
  #status = '';

  constructor(stderr: Output, env: Env) {
    this.#err = stderr;
    this.#tty = wantsProgressLine(stderr, env);
  }

  get tty(): boolean {
    return this.#tty;
  }

  /**
   * A line that stays (a file's outcome, a warning); on a terminal, printed above the status line. Control
   * characters but the newline are escaped here; what came from outside is `shown()` by the caller, newlines too.
   */
  line(text: string): void {
    if (this.#tty && this.#status) this.#err.write('\r\x1b[2K');
    this.#err.write(`${printable(text)}\n`);
    if (this.#tty && this.#status) this.#err.write(this.#status);
  }

  /** The status line (terminal only): replaces the previous one, cut to fit the width. */
  status(text: string): void {
    if (!this.#tty) return;
    const width = Math.max(10, (this.#err.columns ?? 80) - 1);
    const chars = [...shown(text)];
    this.#status = chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
    this.#err.write(`\r\x1b[2K${this.#status}`);
  }

  /** Clears the status line, before the summary. */
  end(): void {
    if (this.#tty && this.#status) this.#err.write('\r\x1b[2K');
    this.#status = '';
  }
}
