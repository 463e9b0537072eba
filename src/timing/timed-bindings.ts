import type { Bindings } from '../env';
import type { ServerTiming } from './server-timing';

/**
 * The request's bindings with every call to D1 and to a Durable Object recorded as a round trip
 * (`d1` or `do`) in its ServerTiming, so that no trip can be left out of the header by a code path
 * that forgot to say so. Bindings are recognised by their shape, so one added later is timed too.
 */
export function timedBindings(env: Bindings, timing: ServerTiming): Bindings {
  const timed: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env)) {
    if (isD1(binding)) timed[name] = timedD1(binding, timing);
    else if (isNamespace(binding)) timed[name] = timedNamespace(name, binding, timing);
  }
  return timed as unknown as Bindings;
}

// Asked with `in`, which reads no property: a binding's getters stay untouched.
const isD1 = (value: unknown): value is D1Database => typeof value === 'object' && value !== null && 'prepare' in value && 'batch' in value;
const isNamespace = (value: unknown): value is DurableObjectNamespace => typeof value === 'object' && value !== null && 'idFromName' in value;

/** Every other property as it is, methods bound to the real object (proxied platform objects check their receiver). */
function passThrough(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop, target);
  return typeof value === 'function' ? value.bind(target) : value;
}

/** `SELECT api_keys`: the statement's verb and the first table it names. */
function describeSql(sql: string): string {
  const verb = sql.trim().split(/\s/, 1)[0]!.toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+(\w+)/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

const RUNS = new Set(['first', 'run', 'all', 'raw']);

function timedD1(db: D1Database, timing: ServerTiming): D1Database {
  // db.batch() wants the platform's own statements back.
  const real = new WeakMap<object, D1PreparedStatement>();
  const statement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => statement(target.bind(...values), sql);
        if (typeof prop === 'string' && RUNS.has(prop)) {
          const run = Reflect.get(target, prop, target) as (...args: unknown[]) => Promise<unknown>;
          return (...args: unknown[]) => timing.trip('d1', describeSql(sql), () => run.apply(target, args));
        }
        return passThrough(target, prop);
      },
    });
    real.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => statement(target.prepare(sql), sql);
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) =>
          timing.trip('d1', `batch of ${statements.length}`, () => target.batch(statements.map((s) => real.get(s) ?? s)));
      }
      if (prop === 'exec') return (sql: string) => timing.trip('d1', describeSql(sql), () => target.exec(sql));
      return passThrough(target, prop);
    },
  });
}

function timedNamespace(name: string, namespace: DurableObjectNamespace, timing: ServerTiming): DurableObjectNamespace {
  return new Proxy(namespace, {
    get(target, prop) {
      if (prop === 'get' || prop === 'getByName') {
        const get = Reflect.get(target, prop, target) as (...args: unknown[]) => DurableObjectStub;
        return (...args: unknown[]) => timedStub(name, get.apply(target, args), timing);
      }
      return passThrough(target, prop);
    },
  });
}

/** A stub whose every method call (RPC or fetch) is a round trip; `id` and `name` are properties, not calls. */
function timedStub(binding: string, stub: DurableObjectStub, timing: ServerTiming): DurableObjectStub {
  return new Proxy(stub, {
    get(target, prop) {
      // A stub answers any property name with a remote method; `then` must stay absent, or awaiting the stub would call it.
      if (prop === 'then') return undefined;
      if (typeof prop !== 'string' || prop === 'id' || prop === 'name') return passThrough(target, prop);
      // Called as a method of the stub: an RPC method has no `apply` of its own (it would be a remote call).
      const methods = target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return (...args: unknown[]) => timing.trip('do', `${binding}.${prop}`, () => methods[prop]!(...args));
    },
  });
}
