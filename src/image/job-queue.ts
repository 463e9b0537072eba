import { admission } from '../limits/admission';
import { Turns } from './turns';

/**
 * Image jobs in one isolate run one at a time: the isolate's 128 MB is shared by every request it
 * serves, and the engine's budget is for one job. Later requests wait their turn, holding their images
 * (counted in their claims on the isolate's byte budget since their first byte) and their predicted CPU
 * time, at most QUEUED_CPU_MS of it in all (src/limits/admission.ts): a job that would pass it is
 * answered at once with 503 service_unavailable and a Retry-After of the queued time; the routes charge
 * nothing for it.
 */
const turns = new Turns();
let queued = 0;

export async function runExclusive<T>(cpuMs: number, job: () => Promise<T>): Promise<T> {
  const leave = admission.enqueue(cpuMs);
  queued++;
  try {
    return await turns.run(job);
  } finally {
    queued--;
    leave();
  }
}

/** The jobs in the queue, the running one included. */
export function queueLength(): number {
  return queued;
}
