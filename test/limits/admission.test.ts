import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { Admission } from '../../src/limits/admission';

function busy(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a 503');
}

describe("an isolate's admission budget", () => {
  it('counts what claims hold, refuses what would pass the budget and holds nothing more for it', () => {
    const admission = new Admission(100, 10_000);
    const a = admission.claim();
    const b = admission.claim();
    a.grow(60);
    expect(busy(() => b.grow(41)).code).toBe('service_unavailable');
    expect(b.bytes).toBe(0);
    b.grow(40);
    a.shrink(20);
    b.grow(20);
    expect(admission.takePeak()).toBe(100);
    a.release();
    b.release();
    expect(a.bytes + b.bytes).toBe(0);
    expect(admission.takePeak(), 'the peak since the last reading: what is held now').toBe(100);
    expect(admission.takePeak()).toBe(0);
  });

  it('bounds the queued CPU time, a lone job always in, and says when to come back', () => {
    const admission = new Admission(100, 10_000);
    const leaveLong = admission.enqueue(25_000);
    const refused = busy(() => admission.enqueue(1));
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('25');
    leaveLong();
    leaveLong();
    const leaveFirst = admission.enqueue(6000);
    const leaveSecond = admission.enqueue(4000);
    expect(busy(() => admission.enqueue(1)).headers['Retry-After']).toBe('10');
    expect(busy(() => admission.claim().grow(101)).headers['Retry-After'], 'a byte refusal waits for the same queue').toBe('10');
    leaveFirst();
    leaveSecond();
    expect(busy(() => admission.claim().grow(101)).headers['Retry-After']).toBe('1');
  });
});
