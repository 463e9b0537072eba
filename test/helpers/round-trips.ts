import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../src/index';
import type { Bindings } from '../../src/env';
import { d1With, namespaceWith } from './bindings';

/** One call the Worker made on a binding: D1 or a Durable Object, what it was, and whether it had settled. */
export interface BindingCall {
  kind: 'd1' | 'do';
  what: string;
  settled: boolean;
}

/**
 * The real D1 and Durable Object namespaces, recording every call made on them: on D1 any statement
 * prepared or batch sent (so "no D1" means none at all), on a Durable Object stub any method called.
 */
function countingBindings(calls: BindingCall[]): Partial<Bindings> {
  const record = <T>(kind: BindingCall['kind'], what: string, run: () => Promise<T>): Promise<T> => {
    const call: BindingCall = { kind, what, settled: false };
    calls.push(call);
    return run().finally(() => {
      call.settled = true;
    });
  };
  const db = d1With({
    prepare: (sql: string) => {
      calls.push({ kind: 'd1', what: `prepare ${sql.trim().slice(0, 40)}`, settled: true });
      return env.DB.prepare(sql);
    },
    batch: (statements: D1PreparedStatement[]) => record('d1', 'batch', () => env.DB.batch(statements)),
  });
  const namespace = <N extends object>(real: N): N => namespaceWith(real, (method, call) => record('do', method, call));
  return { DB: db, ACCOUNT_GATE: namespace(env.ACCOUNT_GATE), RATE_LIMITER: namespace(env.RATE_LIMITER) };
}

/**
 * Calls the Worker with counting bindings. `beforeAnswer` are the calls it had made when its answer
 * came (`settled` says which the answer waited for); `all` adds what it did after (waitUntil).
 */
export async function callCounting(path: string, init?: RequestInit): Promise<{ response: Response; beforeAnswer: BindingCall[]; all: BindingCall[] }> {
  const calls: BindingCall[] = [];
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://api.test${path}`, init), { ...env, ...countingBindings(calls) }, ctx);
  const beforeAnswer = calls.map((c) => ({ ...c }));
  await waitOnExecutionContext(ctx);
  return { response, beforeAnswer, all: calls };
}

/** The round trips of a Server-Timing header: its `d1` and `do` entries, with their desc. */
export function serverTimingTrips(header: string | null): Array<{ kind: string; desc: string }> {
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => /^(d1|do);/.test(entry))
    .map((entry) => ({ kind: entry.split(';')[0]!, desc: /desc="([^"]*)"/.exec(entry)?.[1] ?? '' }));
}

/** The names of a Server-Timing header's entries, in order. */
export const serverTimingNames = (header: string | null): string[] => (header ?? '').split(',').map((e) => e.trim().split(';')[0]!).filter(Boolean);
