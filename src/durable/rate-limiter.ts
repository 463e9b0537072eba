import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { HOUR_MS } from '../limits/windows';
import { countHit, createHitLog, pruneHits, refundHit, type CountedWindow, type MemberWindows } from './sliding-log';

export type { CountedWindow, MemberWindows, WindowState } from './sliding-log';

/**
 * The sliding-window log (sliding-log.ts) of one subject that is not an account: a demo client's
 * network, with a tighter limit per member (the client's own address), or a sign-in limit. One object
 * per subject; an account's minute window lives in its AccountGate with the rest of its state.
 */
export class RateLimiter extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    createHitLog(ctx.storage.sql);
  }

  /** Counts a request if the window has room; a refused request is not counted. */
  async hit(limit: number, windowMs: number, now: number): Promise<CountedWindow> {
    const { subject, hitId } = await this.#count('', limit, limit, windowMs, now);
    return { ...subject, hitId };
  }

  /** Counts a request of `member` if both its own window and the subject's have room; otherwise neither counts it. */
  async hitMember(member: string, memberLimit: number, limit: number, windowMs: number, now: number): Promise<MemberWindows> {
    return this.#count(member, memberLimit, limit, windowMs, now);
  }

  async #count(member: string, memberLimit: number, limit: number, windowMs: number, now: number): Promise<MemberWindows> {
    const counted = countHit(this.ctx.storage.sql, member, memberLimit, limit, windowMs, now);
    if (counted.hitId !== null && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + windowMs);
    return counted;
  }

  /** Takes a counted request out of the log again: the service answered it without doing what it charges for. */
  async refund(hitId: number): Promise<void> {
    refundHit(this.ctx.storage.sql, hitId);
  }

  /** Drops hits too old to matter to any window, so idle subjects keep no storage. */
  override async alarm(): Promise<void> {
    const oldest = pruneHits(this.ctx.storage.sql, Date.now() - HOUR_MS);
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + HOUR_MS);
  }
}
