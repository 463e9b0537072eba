import type { AccountGate, Admitted } from './durable/account-gate';
import type { RateLimiter } from './durable/rate-limiter';
import type { QuotaSlot } from './limits/monthly-quota';
import type { Session } from './sessions/sessions';
import type { ServerTiming } from './timing/server-timing';

/** The bindings declared in wrangler.toml, and the variables that configure mail (README, "Mail"). */
export interface Bindings {
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** One object per account (named by its id): its keys' state, minute window and month (durable/account-gate.ts). */
  ACCOUNT_GATE: DurableObjectNamespace<AccountGate>;
  /**
   * How sign-in mail leaves: `outbox` is local mode (`npm start`, tests: kept in the Worker and served at
   * /dev/outbox to loopback clients), `cloudflare` sends through the EMAIL binding, `resend` through
   * Resend's HTTPS API with RESEND_API_KEY. Unset or incomplete: sign-up is "not available" (503) and
   * the log says what is missing, rather than pretend to send.
   */
  MAIL_TRANSPORT?: string;
  /** The sender of sign-in mail, e.g. `Squeeze <login@example.com>`. */
  MAIL_FROM?: string;
  EMAIL?: SendEmail;
  RESEND_API_KEY?: string;
  /** The secret the operator commands send to /operator/* (routes/operator.ts); unset, those paths are 404. */
  OPERATOR_TOKEN?: string;
  /** Where the plan page tells users to ask for an upgrade (else MAIL_FROM's address). */
  SUPPORT_EMAIL?: string;
  /**
   * The origin users open the service at, e.g. `https://squeeze.example.com`: sign-in links point there,
   * never at the Host a request named. `npm start` sets its own listening origin (mail/mail-setup.ts).
   */
  PUBLIC_ORIGIN?: string;
  /** The most sign-in emails the whole service sends an hour (default 1000). */
  MAIL_PER_HOUR?: string;
  /** Unset or `on` lets HEIC input in; `off` (any other value) refuses it: HEVC's patents, README "HEIC and AVIF input" (image/input-settings.ts). */
  HEIC_INPUT?: string;
}

/** What middleware hands to the routes. */
export interface Variables {
  /** The request's one reading of the clock (middleware/read-clock.ts). */
  nowMs: number;
  /** What the key's account object answered (middleware/authenticate.ts). */
  admission: Admitted;
  /** The compression's slot of the month, when the account's object held one. */
  quotaSlot: QuotaSlot | undefined;
  /** Set on API routes (middleware/server-timing.ts). */
  timing: ServerTiming;
  session: Session;
  /** Set on dashboard and sign-in routes: errors there are rendered as pages, not JSON. */
  htmlErrors: boolean;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
