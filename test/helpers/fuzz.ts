import { expect } from 'vitest';
import { ApiError } from '../../src/errors/api-error';
import { type CompressRequest, compressImage } from '../../src/image/pipeline';
import { call, createKey, form } from './api';

export interface Outcomes {
  /** Answers by error code (`ok` for an image). */
  outcomes: Record<string, number>;
  /** Inputs that failed with a 5xx or anything that is not an ApiError. */
  failures: string[];
  slowestMs: number;
  slowestInput: number;
}

/** Runs the image path over inputs 0 to count - 1: how each ended, and the slowest. */
export async function compressOutcomes(count: number, input: (n: number) => Uint8Array, request: (n: number) => CompressRequest): Promise<Outcomes> {
  const result: Outcomes = { outcomes: {}, failures: [], slowestMs: 0, slowestInput: 0 };
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    try {
      await compressImage(input(n), request(n));
      result.outcomes.ok = (result.outcomes.ok ?? 0) + 1;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) result.failures.push(`input ${n}: ${err}`);
      else result.outcomes[err.code] = (result.outcomes[err.code] ?? 0) + 1;
    }
    const took = performance.now() - started;
    if (took > result.slowestMs) [result.slowestMs, result.slowestInput] = [took, n];
  }
  return result;
}

/** Uploads inputs 0 to count - 1 to POST /v1/compress on one business key: the statuses, each refusal checked to be a JSON error code. */
export async function statusesThroughApi(count: number, input: (n: number) => Uint8Array): Promise<Record<number, number>> {
  const { key } = await createKey('business');
  const statuses: Record<number, number> = {};
  for (let n = 0; n < count; n++) {
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input(n)) });
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status !== 200) expect(((await response.json()) as { error: string }).error).toMatch(/^[a-z_]+$/);
    else await response.arrayBuffer();
  }
  return statuses;
}
