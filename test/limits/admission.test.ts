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
    const admission = new Admission(100, 10_000, 100);
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

  it("holds at most a holder's share for each account or network, the isolate's budget above them all", () => {
    const admission = new Admission(100, 10_000, 40);
    const first = admission.claim('account:a');
    const second = admission.claim('account:a');
    const other = admission.claim('network:198.51.100.0/24');
    first.grow(30);
    const refused = busy(() => second.grow(11));
    expect(refused.code).toBe('service_unavailable');
    expect(refused.message).toMatch(/^Your requests already hold the most one account or network may hold .* \(40 bytes, one largest upload's share\); nothing was charged/);
    expect(busy(() => second.refuseUnlessFits(11)).message).toBe(refused.message);
    expect(second.bytes).toBe(0);
    second.grow(10);
    other.grow(40);
    expect(busy(() => admission.claim().grow(21)).message, 'the isolate full').toMatch(/^The service is busy with other images/);
    first.release();
    second.grow(30);
    second.release();
    other.release();
    admission.takePeak();
    expect(admission.takePeak()).toBe(0);
    admission.claim('account:a').grow(40);
  });

  it('bounds the queued CPU time, a lone job always in, and says when to come back', () => {
    const admission = new Admission(100, 10_000, 100);
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
