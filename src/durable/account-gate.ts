import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { monthWindow } from '../limits/month';
import { MINUTE_MS } from '../limits/windows';
import { lastUsedStatements, readAccountSnapshot, usageBatchStatements, type AccountFacts, type KeyFacts, type UsageDelta } from '../store/account-state';
import type { PlanName } from '../store/keys';
import type { MonthUsage } from '../store/usage';
import { countHit, createHitLog, pruneHits, refundHit, type WindowState } from './sliding-log';

/**
 * A quota slot whose request neither committed nor released it by then counts as a compression (with
 * no bytes): far longer than any request lives (the CPU limit is a minute) plus the 30 s the runtime
 * gives work after the answer, so only a lost commit gets there, and a lost commit must not become a
 * free request.
 */
export const SLOT_HOLD_MS = 15 * 60_000;
/** Counted compressions are written to D1 this long after the first of them: one D1 batch for all that came meanwhile. */
export const USAGE_BATCH_DELAY_MS = 5_000;
/** After a failed D1 write, the next try. */
const RETRY_MS = 30_000;
/** "Last used" is shown to the hour: written at most once an hour per key. */
const LAST_USED_EVERY_MS = 3_600_000;
/**
 * The longest the object answers from the account as it last read it from D1. Every change is sent to
 * the object as it is made (reload()), so this bounds only a change whose reload did not arrive: a key
 * revoked while the call to the object failed stops working within this time (docs/shared-state.md).
 * It costs an active account one D1 read per period, paid by the request that finds the state aged.
 */
export const ACCOUNT_STATE_MAX_AGE_MS = 30_000;

export type Refusal = 'unknown' | 'revoked' | 'expired' | 'account_disabled';

/** A working key and its account's plan. */
export interface AdmittedKey {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  plan: PlanName;
  perMinute: number;
  monthlyQuota: number;
}

/** The account's month: successful compressions and their bytes, and the slots held by requests in flight. */
export interface MonthCount extends MonthUsage {
  held: number;
}

export interface Admitted {
  refused: null;
  key: AdmittedKey;
  minute: WindowState;
  /** This request's entry in the minute window, to give back (release) when the service turns it away; null when refused. */
  hitId: number | null;
  /** The month of the request's clock, this request's slot included in `held`. */
  month: MonthCount;
  /** The calling key's own share of the month's successes. */
  keyMonth: MonthUsage;
  /** The quota slot held for this request; null when none was asked for, the minute refused it, or the month is full. */
  slotId: string | null;
}

export type Admission = Admitted | { refused: Refusal };

export interface AdmitRequest {
  keyHash: string;
  /** The request's one reading of the clock (middleware/read-clock.ts): its minute, month and day. */
  nowMs: number;
  /** Hold a slot of the monthly quota (a compression) if the month has room. */
  holdSlot: boolean;
}

const zero = (): MonthUsage => ({ requests: 0, bytesIn: 0, bytesOut: 0 });
const addUsage = (to: MonthUsage, from: MonthUsage) => {
  to.requests += from.requests;
  to.bytesIn += from.bytesIn;
  to.bytesOut += from.bytesOut;
};

/**
 * Everything a keyed request needs from shared state, in one place per account (named by the account
 * id), so that it costs one round trip: whether the key works (revoked, rolled and expired, account
 * disabled), the account's per-minute window, and its monthly quota. The object is single-threaded:
 * check-then-count needs no lock, so the quota is never exceeded however many isolates ask at once.
 *
 * D1 stays the store of record. The object reads the account's plan, keys and month from it when it
 * starts, when told the account changed (reload()) and once its copy is ACCOUNT_STATE_MAX_AGE_MS old,
 * keeps in its own SQLite the requests in flight (held slots) and the compressions D1 has not got yet,
 * and writes those to D1 in batches that D1 applies once each (store/account-state.ts), from its
 * alarm, after the answers went out.
 */
export class AccountGate extends DurableObject<Bindings> {
  /** The account as D1 had it at the last load; undefined before the first. */
  #facts: AccountFacts | null | undefined;
  /** When the last load began (its read saw no change made after that). */
  #loadedAtMs = 0;
  /** D1's usage of the month last read, per key, with the batches written since added to it. */
  #months = new Map<string, Map<string, MonthUsage>>();
  /** Keys whose "last used" is due to be written, with the time to write. */
  #lastUsed = new Map<string, string>();
  /** Every D1 read and write of the object, one after the other, so that none overtakes another. */
  #d1: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    createHitLog(sql);
    // A quota slot: held (counted = 0) by a request in flight, or counted (a success, or a lapsed
    // hold) and waiting for its D1 batch. `batch` is the number it was sent to D1 under.
    sql.exec(`CREATE TABLE IF NOT EXISTS slots (
      id TEXT PRIMARY KEY, key_id TEXT NOT NULL, month TEXT NOT NULL, day TEXT NOT NULL,
      counted INTEGER NOT NULL DEFAULT 0, bytes_in INTEGER NOT NULL DEFAULT 0, bytes_out INTEGER NOT NULL DEFAULT 0,
      lapses_ms INTEGER NOT NULL, batch INTEGER)`);
    sql.exec('CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
  }

  /**
   * The one call of a keyed request: the key's verdict, then (for a working key) one hit of the
   * minute window, then (asked for by a compression the minute allowed) a slot of the month if it has
   * room. A refused minute counts nothing; a full month still counts the minute hit.
   */
  async admit({ keyHash, nowMs, holdSlot }: AdmitRequest): Promise<Admission> {
    const month = monthWindow(nowMs).key;
    await this.#ready(month);
    // A key made since the account was read: the Worker found its hash in D1, so read again once.
    if (!this.#facts?.keys.has(keyHash)) await this.#serially(() => this.#load(month));
    const facts = this.#facts;
    const key = facts?.keys.get(keyHash);
    if (!facts || !key) return { refused: 'unknown' };
    const refused = refusal(facts, key, nowMs);
    if (refused) return { refused };

    const sql = this.ctx.storage.sql;
    const { subject: minute, hitId } = countHit(sql, '', facts.perMinute, facts.perMinute, MINUTE_MS, nowMs);
    let slotId: string | null = null;
    const wakes = [nowMs + MINUTE_MS];
    if (minute.allowed) {
      if (this.#noteUse(key, nowMs)) wakes.push(Date.now() + USAGE_BATCH_DELAY_MS);
      const { requests, held } = this.#monthView(month, key.id).account;
      if (holdSlot && requests + held < facts.monthlyQuota) {
        slotId = crypto.randomUUID();
        const lapsesMs = Date.now() + SLOT_HOLD_MS;
        sql.exec('INSERT INTO slots (id, key_id, month, day, lapses_ms) VALUES (?, ?, ?, ?, ?)', slotId, key.id, month, dayOf(nowMs), lapsesMs);
        wakes.push(lapsesMs);
      }
    }
    const view = this.#monthView(month, key.id);
    if (hitId !== null) await this.#wakeBy(Math.min(...wakes));
    return {
      refused: null,
      key: { id: key.id, accountId: this.#accountId, name: key.name, prefix: key.prefix, plan: facts.plan, perMinute: facts.perMinute, monthlyQuota: facts.monthlyQuota },
      minute,
      hitId,
      month: view.account,
      keyMonth: view.key,
      slotId,
    };
  }

  /**
   * Counts a held slot's compression with its bytes. Idempotent (a retried commit sets the same
   * values), and a no-op for a slot already sent to D1: the commit of a slot that lapsed meanwhile
   * cannot count it twice.
   */
  async commit(slotId: string, bytesIn: number, bytesOut: number): Promise<void> {
    this.ctx.storage.sql.exec('UPDATE slots SET counted = 1, bytes_in = ?, bytes_out = ? WHERE id = ? AND batch IS NULL', bytesIn, bytesOut, slotId);
    await this.#wakeBy(Date.now() + USAGE_BATCH_DELAY_MS);
  }

  /**
   * Gives back what a request was charged for a failure: its held slot (the month's successes only
   * count), and its minute hit when the service itself turned it away (a busy engine: 503).
   */
  async release(slotId: string | null, hitId: number | null): Promise<void> {
    if (slotId) this.ctx.storage.sql.exec('DELETE FROM slots WHERE id = ? AND counted = 0', slotId);
    if (hitId !== null) refundHit(this.ctx.storage.sql, hitId);
  }

  /** Reads the account from D1 again now: its keys, plan or status changed (revoke, roll, plan, disable). */
  async reload(): Promise<void> {
    await this.#serially(() => this.#load(monthWindow(Date.now()).key));
  }

  /** Writes what D1 has not got yet now, so that a reader of D1 (the dashboard) sees every answered compression. */
  async flush(): Promise<void> {
    await this.#serially(() => this.#writeUsage());
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    // A hold that outlived any request: its commit was lost, and it counts (no free request).
    sql.exec('UPDATE slots SET counted = 1 WHERE counted = 0 AND lapses_ms <= ?', now);
    const oldestHit = pruneHits(sql, now - MINUTE_MS);
    let failed = false;
    try {
      await this.#serially(() => this.#writeUsage());
    } catch (err) {
      console.error('AccountGate: writing usage to D1 failed; trying again later', err);
      failed = true;
    }
    const pending = sql.exec<{ n: number }>('SELECT count(*) AS n FROM slots WHERE counted = 1').one().n > 0 || this.#lastUsed.size > 0;
    const nextLapse = sql.exec<{ at: number | null }>('SELECT min(lapses_ms) AS at FROM slots WHERE counted = 0').one().at;
    const wakes = [oldestHit === null ? Infinity : oldestHit + MINUTE_MS, nextLapse ?? Infinity, pending ? now + (failed ? RETRY_MS : USAGE_BATCH_DELAY_MS) : Infinity];
    const next = Math.min(...wakes);
    if (next !== Infinity) await this.#wakeBy(next);
  }

  get #accountId(): string {
    const name = this.ctx.id.name;
    if (!name) throw new Error('AccountGate is addressed by account id (idFromName)');
    return name;
  }

  /** Waits until the account and the month's usage are in memory and younger than ACCOUNT_STATE_MAX_AGE_MS, read from D1 if not. */
  async #ready(month: string): Promise<void> {
    const current = () => this.#facts !== undefined && this.#months.has(month) && Date.now() - this.#loadedAtMs < ACCOUNT_STATE_MAX_AGE_MS;
    if (current()) return;
    await this.#serially(async () => {
      if (!current()) await this.#load(month);
    });
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#d1.then(work, work);
    this.#d1 = run.catch(() => undefined);
    return run;
  }

  /** Reads the account and `month` from D1 (run serially). Batches D1 has applied are in what it read, so their rows go. */
  async #load(month: string): Promise<void> {
    const startedMs = Date.now();
    const snapshot = await readAccountSnapshot(this.env.DB, this.#accountId, month);
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM slots WHERE batch <= ?', snapshot.flushedBatch);
    // The numbers go on from D1's, even if this object's storage were ever lost: a reused number would be skipped.
    this.#setLastBatch(Math.max(this.#lastBatch(), snapshot.flushedBatch));
    this.#facts = snapshot.facts;
    this.#loadedAtMs = startedMs;
    this.#months.clear();
    this.#months.set(month, snapshot.month);
  }

  /** Sends the counted compressions (and due "last used" times) to D1 as one batch (run serially). */
  async #writeUsage(): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (sql.exec<{ n: number }>('SELECT count(*) AS n FROM slots WHERE counted = 1').one().n === 0 && this.#lastUsed.size === 0) return;
    // Batch numbers go on from D1's (#load), so a new object reads the account first.
    if (this.#facts === undefined) await this.#load(monthWindow(Date.now()).key);
    // A batch sent before without an answer goes again first, under its own number.
    let batch = sql.exec<{ b: number | null }>('SELECT min(batch) AS b FROM slots').one().b;
    if (batch === null && sql.exec<{ n: number }>('SELECT count(*) AS n FROM slots WHERE counted = 1').one().n > 0) {
      batch = this.#lastBatch() + 1;
      this.#setLastBatch(batch);
      sql.exec('UPDATE slots SET batch = ? WHERE counted = 1 AND batch IS NULL', batch);
    }
    const uses = [...this.#lastUsed].map(([keyId, at]) => ({ keyId, at }));
    if (batch === null && uses.length === 0) return;
    type Row = { key_id: string; month: string; day: string; requests: number; bytes_in: number; bytes_out: number };
    const deltas: UsageDelta[] =
      batch === null
        ? []
        : sql
            .exec<Row>(
              'SELECT key_id, month, day, count(*) AS requests, sum(bytes_in) AS bytes_in, sum(bytes_out) AS bytes_out FROM slots WHERE batch = ? GROUP BY key_id, month, day',
              batch,
            )
            .toArray()
            .map((r) => ({ keyId: r.key_id, month: r.month, day: r.day, requests: r.requests, bytesIn: r.bytes_in, bytesOut: r.bytes_out }));
    const db = this.env.DB;
    await db.batch([...(batch === null ? [] : usageBatchStatements(db, { accountId: this.#accountId, number: batch, deltas })), ...lastUsedStatements(db, uses)]);
    if (batch !== null) {
      for (const d of deltas) {
        const base = this.#months.get(d.month);
        if (!base) continue;
        const usage = base.get(d.keyId) ?? zero();
        addUsage(usage, d);
        base.set(d.keyId, usage);
      }
      sql.exec('DELETE FROM slots WHERE batch = ?', batch);
    }
    for (const { keyId, at } of uses) if (this.#lastUsed.get(keyId) === at) this.#lastUsed.delete(keyId);
  }

  /** The account's month and the key's share: D1's usage plus the slots D1 has not got. */
  #monthView(month: string, keyId: string): { account: MonthCount; key: MonthUsage } {
    const account: MonthCount = { ...zero(), held: 0 };
    const key = zero();
    for (const [id, usage] of this.#months.get(month) ?? []) {
      addUsage(account, usage);
      if (id === keyId) addUsage(key, usage);
    }
    type Row = { key_id: string; counted: number; requests: number; bytes_in: number; bytes_out: number };
    const rows = this.ctx.storage.sql.exec<Row>(
      `SELECT key_id, counted, count(*) AS requests, sum(bytes_in) AS bytes_in, sum(bytes_out) AS bytes_out
         FROM slots WHERE month = ? GROUP BY key_id, counted`,
      month,
    );
    for (const row of rows) {
      if (!row.counted) {
        account.held += row.requests;
        continue;
      }
      const usage = { requests: row.requests, bytesIn: row.bytes_in, bytesOut: row.bytes_out };
      addUsage(account, usage);
      if (row.key_id === keyId) addUsage(key, usage);
    }
    return { account, key };
  }

  /** Marks the key used at `nowMs` if its "last used" is over an hour old; true when that is due to be written. */
  #noteUse(key: KeyFacts, nowMs: number): boolean {
    if (key.lastUsedAt && Date.parse(key.lastUsedAt) >= nowMs - LAST_USED_EVERY_MS) return false;
    key.lastUsedAt = new Date(nowMs).toISOString();
    this.#lastUsed.set(key.id, key.lastUsedAt);
    return true;
  }

  async #wakeBy(atMs: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || atMs < current) await this.ctx.storage.setAlarm(atMs);
  }

  #lastBatch(): number {
    return this.ctx.storage.sql.exec<{ value: number }>("SELECT value FROM meta WHERE name = 'batch'").toArray()[0]?.value ?? 0;
  }

  #setLastBatch(value: number): void {
    this.ctx.storage.sql.exec("INSERT INTO meta (name, value) VALUES ('batch', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", value);
  }
}

/** Why a key does not work at `nowMs`, or null when it does. */
function refusal(facts: AccountFacts, key: KeyFacts, nowMs: number): Refusal | null {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= new Date(nowMs).toISOString()) return 'expired';
  return facts.disabled ? 'account_disabled' : null;
}

const dayOf = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);
