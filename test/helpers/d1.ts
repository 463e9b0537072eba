import { env } from 'cloudflare:workers';

/**
 * The real D1 with some of its methods replaced (to fail, to watch or to move the clock); everything else
 * is the binding's own, bound to it. Handed to the Worker with callWith({ DB: ... }).
 */
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
