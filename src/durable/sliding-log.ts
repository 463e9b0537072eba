/** The state of one sliding window after a request was counted or refused. */
export interface WindowState {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When the oldest counted request leaves the window, i.e. when one more request is allowed. */
  resetMs: number;
}

/** A window after a request was counted, with the request's entry in the log for refundHit(); null when it was refused. */
export interface CountedWindow extends WindowState {
  hitId: number | null;
}

/** A subject's window and the window of one of its members, counted together. */
export interface MemberWindows {
  subject: WindowState;
  member: WindowState;
  /** The counted request's entry in the log, for refundHit(); null when it was refused. */
  hitId: number | null;
}

// AUTOINCREMENT: a refund deletes by id, and a plain rowid is reused once the newest row is gone (a
// slow request's hit pruned from the window, then a new hit takes its number).
const CREATE_HITS = "CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL, member TEXT NOT NULL DEFAULT '')";

/**
 * A sliding-window log in a Durable Object's SQLite: one row per counted request, optionally tagged
 * with a member (a demo client's own address within its network). The object is single-threaded and
 * these functions are synchronous, so count-then-insert is atomic without locks. A log of at most
 * `limit` timestamps is exact, unlike a fixed window that lets 2x through at a boundary.
 */
export function createHitLog(sql: SqlStorage): void {
  sql.exec(CREATE_HITS);
  const columns = new Set(sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('hits')").toArray().map((c) => c.name));
  if (columns.has('id')) return;
  // A log created before hits had ids (and maybe before members): its rows keep counting.
  sql.exec('ALTER TABLE hits RENAME TO hits_before_ids');
  sql.exec(CREATE_HITS);
  sql.exec(`INSERT INTO hits (at_ms, member) SELECT at_ms, ${columns.has('member') ? 'member' : "''"} FROM hits_before_ids`);
  sql.exec('DROP TABLE hits_before_ids');
}

/**
 * Counts a request of `member` if both its own window and the whole log's have room; otherwise
 * neither counts it. `now` is the request's reading of the clock, so that the window and the headers
 * computed from it agree.
 */
export function countHit(sql: SqlStorage, member: string, memberLimit: number, limit: number, windowMs: number, now: number): MemberWindows {
  sql.exec('DELETE FROM hits WHERE at_ms <= ?', now - windowMs);
  type Row = { n: number; oldest: number | null };
  const all = sql.exec<Row>('SELECT count(*) AS n, min(at_ms) AS oldest FROM hits').one();
  const own = sql.exec<Row>('SELECT count(*) AS n, min(at_ms) AS oldest FROM hits WHERE member = ?', member).one();
  const allowed = all.n < limit && own.n < memberLimit;
  const hitId = allowed ? sql.exec<{ id: number }>('INSERT INTO hits (at_ms, member) VALUES (?, ?) RETURNING id', now, member).one().id : null;
  const state = (row: Row, rowLimit: number): WindowState => ({
    allowed,
    limit: rowLimit,
    remaining: Math.max(0, rowLimit - row.n - (allowed ? 1 : 0)),
    resetMs: (row.oldest ?? now) + windowMs,
  });
  return { subject: state(all, limit), member: state(own, memberLimit), hitId };
}

/** Takes a counted request out of the log again: the service answered it without doing what it charges for. */
export function refundHit(sql: SqlStorage, hitId: number): void {
  sql.exec('DELETE FROM hits WHERE id = ?', hitId);
}

/** Drops hits at or before `beforeMs`; returns the oldest left, or null when the log is empty. */
export function pruneHits(sql: SqlStorage, beforeMs: number): number | null {
  sql.exec('DELETE FROM hits WHERE at_ms <= ?', beforeMs);
  return sql.exec<{ oldest: number | null }>('SELECT min(at_ms) AS oldest FROM hits').one().oldest;
}
