// Run by bench/latency.mjs (npm run bench:latency) in a checkout: this one or the baseline's. Only web
// and workerd APIs, the checkout's own src/index and this checkout's test/helpers/bindings.ts (copied beside it
// into the baseline), so that both versions run the same measurement.
import { applyD1Migrations, createExecutionContext, waitOnExecutionContext, type D1Migration } from 'cloudflare:test';
import { env as realEnv } from 'cloudflare:workers';
import { it } from 'vitest';
import worker from '../../src/index';
import { namespaceWith } from '../../test/helpers/bindings';

interface LatencyEnv {
  DB: D1Database;
  TEST_MIGRATIONS: D1Migration[];
  LATENCY_DELAY_MS: number;
  LATENCY_ROUNDS: number;
  LATENCY_IMAGE: string;
}
const env = realEnv as unknown as LatencyEnv & Record<string, unknown>;
const image = Uint8Array.from(atob(env.LATENCY_IMAGE), (c) => c.charCodeAt(0));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The checkout's bindings with every call to D1 and to a Durable Object stub delayed by `delayMs` (one
 * round trip to a far primary or object) and recorded; bindings are recognised by their shape.
 */
function delayedBindings(delayMs: number, calls: Array<{ settled: boolean }>): Record<string, unknown> {
  const trip = async <T>(run: () => Promise<T>): Promise<T> => {
    const call = { settled: false };
    calls.push(call);
    await sleep(delayMs);
    try {
      return await run();
    } finally {
      call.settled = true;
    }
  };
  const bindings: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env)) {
    if (typeof binding !== 'object' || binding === null) continue;
    if ('prepare' in binding && 'batch' in binding) {
      const db = binding as D1Database;
      const real = new WeakMap<object, D1PreparedStatement>();
      const statement = (stmt: D1PreparedStatement): D1PreparedStatement => {
        const proxy = new Proxy(stmt, {
          get: (target, prop) => {
            if (prop === 'bind') return (...values: unknown[]) => statement(target.bind(...values));
            const value = Reflect.get(target, prop, target);
            if (typeof value !== 'function') return value;
            return ['first', 'run', 'all', 'raw'].includes(String(prop)) ? (...args: unknown[]) => trip(() => value.apply(target, args)) : value.bind(target);
          },
        });
        real.set(proxy, stmt);
        return proxy;
      };
      bindings[name] = new Proxy(db, {
        get: (target, prop) => {
          if (prop === 'prepare') return (sql: string) => statement(target.prepare(sql));
          if (prop === 'batch') return (list: D1PreparedStatement[]) => trip(() => target.batch(list.map((s) => real.get(s) ?? s)));
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    } else if ('idFromName' in binding) {
      bindings[name] = namespaceWith(binding as DurableObjectNamespace, (_method, call) => trip(call));
    }
  }
  return bindings;
}

/** One request end to end (answer and body read), and the round trips its answer waited for. */
async function timed(request: () => Request, delayMs: number): Promise<{ ms: number; status: number; trips: number }> {
  const calls: Array<{ settled: boolean }> = [];
  const bindings = delayedBindings(delayMs, calls);
  const ctx = createExecutionContext();
  const start = performance.now();
  const response = await worker.fetch(request(), bindings as never, ctx);
  await response.arrayBuffer();
  const ms = performance.now() - start;
  const trips = calls.filter((c) => c.settled).length;
  await waitOnExecutionContext(ctx);
  return { ms, status: response.status, trips };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

it('latency of the keyed and demo paths with a delay per round trip', async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  // A business key (600 a minute), stored as both versions store it: an account of its own.
  const key = `sqz_${'L'.repeat(32)}`;
  const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO accounts (id, plan, created_at) VALUES ('latency', 'business', ?)").bind(now),
    env.DB.prepare("INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at) VALUES ('latency-key', 'latency', ?, ?, 'bench', ?)").bind(hash, key.slice(0, 12), now),
  ]);
  let client = 0;
  const paths: Record<string, () => Request> = {
    'POST /v1/compress (key)': () => {
      const body = new FormData();
      body.append('file', new File([image], 'small.png'));
      return new Request('http://latency.test/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body });
    },
    'GET /v1/usage (key)': () => new Request('http://latency.test/v1/usage', { headers: { 'X-API-Key': key } }),
    'POST /v1/demo-compress': () => {
      const body = new FormData();
      body.append('image', new File([image], 'small.png'));
      // A network of its own per request: the demo allows 5 an hour per client.
      client++;
      return new Request('http://latency.test/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': `198.18.${client >> 8}.${client & 255}` }, body });
    },
  };
  const results: Record<string, Record<number, { ms: number; trips: number; status: number }>> = {};
  for (const delayMs of [0, env.LATENCY_DELAY_MS]) {
    for (const [name, request] of Object.entries(paths)) {
      // The first request warms the engine and makes the key known to the isolate (steady state).
      await timed(request, delayMs);
      const runs = [];
      for (let i = 0; i < env.LATENCY_ROUNDS; i++) runs.push(await timed(request, delayMs));
      (results[name] ??= {})[delayMs] = { ms: median(runs.map((r) => r.ms)), trips: median(runs.map((r) => r.trips)), status: runs[0]!.status };
    }
  }
  console.log(`LATENCY ${JSON.stringify({ paths: results, admitsPerSecond: await accountObjectThroughput(hash) })}`);
});

/**
 * How many requests one account's object answers per second here (workerd on this machine, no delay):
 * usage admissions (a key check, a minute hit and the month's figures each), 200 at a time. Null for a
 * checkout without the account objects (the baseline).
 */
async function accountObjectThroughput(keyHash: string): Promise<number | null> {
  const namespace = env.ACCOUNT_GATE as DurableObjectNamespace | undefined;
  if (!namespace) return null;
  const gate = namespace.get(namespace.idFromName('latency')) as unknown as { admit(r: unknown): Promise<unknown> };
  // The minute window refuses after its 600 but every admission is still a full one.
  const admit = () => gate.admit({ keyHash, nowMs: Date.now(), holdSlot: false });
  await admit();
  const count = 2000;
  const start = performance.now();
  for (let done = 0; done < count; done += 200) await Promise.all(Array.from({ length: 200 }, admit));
  return Math.round(count / ((performance.now() - start) / 1000));
}
