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

/** A window after a request was counted, with the request's entry in the log for refund(); null when it was refused. */
export interface CountedWindow extends WindowState {
  hitId: number | null;
}

/** A subject's window and the window of one of its members, counted together. */
export interface MemberWindows {
  subject: WindowState;
  member: WindowState;
  /** The counted request's entry in the log, for refund(); null when it was refused. */
  hitId: number | null;
}

/**
 * A sliding-window log for one subject (an API key, or a demo client's network), optionally with a
 * tighter limit per member (a demo client's own address within its network). One object per subject,
 * so its single-threaded SQLite makes count-then-insert atomic without locks, for both limits at once.
 * A log of at most `limit` timestamps is exact, unlike a fixed window that lets 2x through at a boundary.
 */
export class RateLimiter extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS hits (at_ms INTEGER NOT NULL, member TEXT NOT NULL DEFAULT '')");
    // Objects created before members existed have a log without the column.
    if (sql.exec("SELECT 1 FROM pragma_table_info('hits') WHERE name = 'member'").toArray().length === 0) {
      sql.exec("ALTER TABLE hits ADD COLUMN member TEXT NOT NULL DEFAULT ''");
    }
  }

  /**
   * Counts a request if the window has room; a refused request is not counted. `now` is the request's
   * reading of the clock, so that the window and the headers computed from it agree.
   */
  async hit(limit: number, windowMs: number, now: number): Promise<CountedWindow> {
    const { subject, hitId } = await this.#count('', limit, limit, windowMs, now);
    return { ...subject, hitId };
  }

  /** Counts a request of `member` if both its own window and the subject's have room; otherwise neither counts it. */
  async hitMember(member: string, memberLimit: number, limit: number, windowMs: number, now: number): Promise<MemberWindows> {
    return this.#count(member, memberLimit, limit, windowMs, now);
  }

  async #count(member: string, memberLimit: number, limit: number, windowMs: number, now: number): Promise<MemberWindows> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM hits WHERE at_ms <= ?', now - windowMs);
    type Row = { n: number; oldest: number | null };
    const all = sql.exec<Row>('SELECT count(*) AS n, min(at_ms) AS oldest FROM hits').one();
    const own = sql.exec<Row>('SELECT count(*) AS n, min(at_ms) AS oldest FROM hits WHERE member = ?', member).one();
    const allowed = all.n < limit && own.n < memberLimit;
    let hitId: number | null = null;
    if (allowed) {
      hitId = sql.exec<{ id: number }>('INSERT INTO hits (at_ms, member) VALUES (?, ?) RETURNING rowid AS id', now, member).one().id;
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + windowMs);
    }
    const state = (row: Row, rowLimit: number): WindowState => ({
      allowed,
      limit: rowLimit,
      remaining: Math.max(0, rowLimit - row.n - (allowed ? 1 : 0)),
      resetMs: (row.oldest ?? now) + windowMs,
    });
    return { subject: state(all, limit), member: state(own, memberLimit), hitId };
  }

  /** Takes a counted request out of the log again: the service answered it without doing what it charges for. */
  async refund(hitId: number): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM hits WHERE rowid = ?', hitId);
  }

  /** Drops hits too old to matter to any window, so idle subjects keep no storage. */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM hits WHERE at_ms <= ?', Date.now() - HOUR_MS);
    const oldest = sql.exec<{ oldest: number | null }>('SELECT min(at_ms) AS oldest FROM hits').one().oldest;
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + HOUR_MS);
  }
}
