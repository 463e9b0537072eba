import { ApiError } from '../errors/api-error';
import { QUEUED_INPUT_BYTES } from '../limits/memory';

/**
 * Image jobs in one isolate run one at a time: the isolate's 128 MB is shared by every request it
 * serves, and the engine's budget is for one job. Later requests wait their turn, holding their
 * images: at most QUEUED_INPUT_BYTES of them in all (the running job's included). A request that
 * would pass it is answered at once with 503 service_unavailable and a Retry-After of the CPU time
 * the models predict for the jobs ahead; the routes charge nothing for it.
 */
let tail: Promise<unknown> = Promise.resolve();
let queuedBytes = 0;
let queuedCpuMs = 0;

export function runExclusive<T>(cost: { inputBytes: number; cpuMs: number }, job: () => Promise<T>): Promise<T> {
  // A lone request always gets in: its size is the request limits' business.
  if (queuedBytes > 0 && queuedBytes + cost.inputBytes > QUEUED_INPUT_BYTES) {
    const seconds = Math.max(1, Math.ceil(queuedCpuMs / 1000));
    throw new ApiError('service_unavailable', `The service is busy with other images; nothing was charged. Try again in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  queuedBytes += cost.inputBytes;
  queuedCpuMs += cost.cpuMs;
  const result = tail.then(job, job).finally(() => {
    queuedBytes -= cost.inputBytes;
    queuedCpuMs -= cost.cpuMs;
  });
  tail = result.catch(() => undefined);
  return result;
}
