import type { WindowState } from './durable/rate-limiter';
import type { RateLimiter } from './durable/rate-limiter';
import type { ApiKeyRecord } from './store/keys';

/** The bindings declared in wrangler.toml. */
export interface Bindings {
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
}

/** What middleware hands to the routes. */
export interface Variables {
  /** The request's one reading of the clock (middleware/read-clock.ts). */
  nowMs: number;
  apiKey: ApiKeyRecord;
  minuteWindow: WindowState;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
