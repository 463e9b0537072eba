/**
 * JavaScript Promise Integration (WebAssembly.Suspending, WebAssembly.promising): an import wrapped as
 * Suspending may return a promise, and the WASM stack that called it waits, suspended, while the event
 * loop runs other requests; the export wrapped as promising returns a promise of its result. workerd has
 * it at the project's compatibility date; Node 22 (the bench, the scripts) has not, and there the engine
 * runs each job in one piece, as it did before.
 */
interface Jspi {
  Suspending: new (f: () => Promise<void>) => () => void;
  promising<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => Promise<R>;
}

const api = WebAssembly as unknown as Partial<Jspi>;

export const hasJspi = typeof api.Suspending === 'function' && typeof api.promising === 'function';

/** An import that suspends the WASM stack until `f`'s promise settles (only where hasJspi). */
export function suspending(f: () => Promise<void>): () => void {
  return new api.Suspending!(f);
}

/** The export as an async function (a plain call wrapped in a promise without JSPI). */
export function promising<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => Promise<R> {
  return hasJspi ? api.promising!(f) : async (...args: A) => f(...args);
}
