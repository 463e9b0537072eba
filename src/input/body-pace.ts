import { ApiError } from '../errors/api-error';

/**
 * decisions.md, "A slow client holds nothing for long": a request body must arrive within 30 s, and at
 * no less than 64 KiB/s after its first 5 s. Read as Apache's mod_reqtimeout reads its MinRate: the body
 * has 5 s, and every 64 KiB that arrives buys it one second more, up to 30 s in all. So a body of
 * `received` bytes is late at 5 s + received / 64 KiB/s, or at 30 s, whichever comes first.
 */
export const BODY_DEADLINE_MS = 30_000;
export const BODY_GRACE_MS = 5_000;
export const BODY_MIN_BYTES_PER_S = 64 * 1024;

/** One read of a body, raced against the body's pace; `received` is what arrived before it. */
export type PacedRead = <T>(read: Promise<T>, received: number) => Promise<T>;

/** How long after its start a body that has delivered `received` bytes is late. */
export function bodyDueMs(received: number): number {
  return Math.min(BODY_DEADLINE_MS, BODY_GRACE_MS + (received * 1000) / BODY_MIN_BYTES_PER_S);
}

/**
 * The pace of one request body, its clock started now: each read settles as the stream does, or fails
 * with 408 request_timeout when the body is late by then.
 */
export function bodyPace(): PacedRead {
  const startedMs = Date.now();
  return <T>(read: Promise<T>, received: number) =>
    new Promise<T>((resolve, reject) => {
      const dueMs = bodyDueMs(received);
      const timer = setTimeout(() => reject(late(received, dueMs)), Math.max(0, startedMs + dueMs - Date.now()));
      read.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}

function late(received: number, dueMs: number): ApiError {
  const why =
    dueMs >= BODY_DEADLINE_MS
      ? `it took more than ${BODY_DEADLINE_MS / 1000} s`
      : `${received} bytes came in ${(dueMs / 1000).toFixed(1)} s, under ${BODY_MIN_BYTES_PER_S / 1024} KiB/s after the first ${BODY_GRACE_MS / 1000} s`;
  return new ApiError('request_timeout', `The request body did not arrive in time: ${why}. Nothing was charged.`);
}
