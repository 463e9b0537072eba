import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { HOUR_MS } from '../limits/windows';

/** The state of one sliding window after a request was counted or refused. */
export interface WindowState {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When the oldest counted request leaves the window, i.e. when one more request is allowed. */
  resetMs: number;
}

/**
 * A sliding-window log for one subject (an API key, or a demo client's IP bucket). One object per
 * subject, so its single-threaded SQLite makes count-then-insert atomic without locks. A log of at
 * most `limit` timestamps is exact, unlike a fixed window that lets 2x through at a boundary.
 */
export class RateLimiter extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS hits (at_ms INTEGER NOT NULL)');
  }

  /**
   * Counts a request if the window has room; a refused request is not counted. `now` is the request's
   * reading of the clock, so that the window and the headers computed from it agree.
   */
  async hit(limit: number, windowMs: number, now: number): Promise<WindowState> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM hits WHERE at_ms <= ?', now - windowMs);
    const row = sql.exec<{ n: number; oldest: number | null }>('SELECT count(*) AS n, min(at_ms) AS oldest FROM hits').one();
    if (row.n >= limit) {
      return { allowed: false, limit, remaining: 0, resetMs: (row.oldest ?? now) + windowMs };
    }
    sql.exec('INSERT INTO hits (at_ms) VALUES (?)', now);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + windowMs);
    return { allowed: true, limit, remaining: limit - row.n - 1, resetMs: (row.oldest ?? now) + windowMs };
  }

  /** Drops hits too old to matter to any window, so idle subjects keep no storage. */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM hits WHERE at_ms <= ?', Date.now() - HOUR_MS);
    const oldest = sql.exec<{ oldest: number | null }>('SELECT min(at_ms) AS oldest FROM hits').one().oldest;
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + HOUR_MS);
  }
}
