import { env } from 'cloudflare:workers';

/**
 * The platform's bindings with a fault, a watch or a clock move put in their way, everything else theirs:
 * handed to the Worker with callWith({ DB: ..., ACCOUNT_GATE: ... }).
 */

/** The real D1 with some of its methods replaced; the others are the binding's own, bound to it. */
export function d1With(replaced: Partial<Pick<D1Database, 'prepare' | 'batch'>>): D1Database {
  return new Proxy(env.DB, {
    get: (target, prop) => {
      if (prop in replaced) return replaced[prop as keyof typeof replaced];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Rejects as D1 does when it cannot be reached, with an internal detail that must never reach a client. */
export const d1Outage = () => Promise.reject(new Error('D1_ERROR: Network connection lost. (internal detail 10.1.2.3)'));

/** A stub method's call as the Worker made it: its name, and the real call (to make, or not). */
export type StubCall = (method: string, call: () => Promise<unknown>) => Promise<unknown>;

/**
 * A Durable Object namespace whose stubs send every method call through `around` (which may make the real
 * call, fail instead, or watch it); the namespace's other properties are its own.
 */
export function namespaceWith<N extends object>(real: N, around: StubCall): N {
  return new Proxy(real, {
    get: (target, prop) => {
      const value = Reflect.get(target, prop, target) as (...args: unknown[]) => unknown;
      if (prop !== 'get') return typeof value === 'function' ? value.bind(target) : value;
      return (id: DurableObjectId) => {
        const stub = value.call(target, id) as Record<string, (...args: unknown[]) => Promise<unknown>>;
        return new Proxy(stub, {
          // `then` undefined: a stub is not a promise, whatever awaits it.
          get: (s, method) => (typeof method !== 'string' || method === 'then' ? undefined : (...args: unknown[]) => around(method, () => s[method]!(...args))),
        });
      };
    },
  });
}
