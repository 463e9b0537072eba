import type { AccountGate, Admission, AdmitRequest } from '../durable/account-gate';
import type { Bindings } from '../env';
import { failClosed } from './sliding-window';

/** The Worker's calls to an account's AccountGate (src/durable/account-gate.ts), one object per account id. */
export function accountGate(env: Bindings, accountId: string): DurableObjectStub<AccountGate> {
  return env.ACCOUNT_GATE.get(env.ACCOUNT_GATE.idFromName(accountId));
}

/** The one round trip of a keyed request; fails closed (503, nothing charged) when the object cannot be reached. */
export function admitRequest(env: Bindings, accountId: string, request: AdmitRequest): Promise<Admission> {
  // The RPC type of a union result loses the union; the object returns an Admission.
  return failClosed(async () => (await accountGate(env, accountId).admit(request)) as Admission);
}

/**
 * Tells the account's object that D1 changed under it (a key revoked or rolled, the plan changed, the
 * account disabled or enabled): it reads the account again before answering, so the change applies to
 * the next request. Throws when the object cannot be reached: the caller must not report the change
 * as done.
 */
export async function reloadAccount(env: Bindings, accountId: string): Promise<void> {
  await accountGate(env, accountId).reload();
}

/** Has the account's object write to D1 every compression it has counted, for a reader of D1 (the dashboard). */
export async function flushAccountUsage(env: Bindings, accountId: string): Promise<void> {
  await accountGate(env, accountId).flush();
}

/**
 * Delays between the tries of a call made after the answer: an object that is restarting answers
 * again within a second or two; one down for longer lets its held slot lapse into a count, which is
 * right for a commit (the request succeeded) and costs a failed request one count in the rare case
 * of a lost release.
 */
const RETRY_DELAYS_MS = [100, 500, 2_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs an idempotent call to an object that the answer does not wait for (waitUntil keeps it alive
 * after the answer), trying again on failure; what happens when every try failed is the object's
 * business (a held slot lapses into a count). The first try is sent at once, as the answer leaves:
 * a client's next request, which needs the answer first, then reaches the object after it, so the
 * client reads its own compression in GET /v1/usage.
 */
export function afterAnswer(ctx: Pick<ExecutionContext, 'waitUntil'>, call: () => Promise<unknown>): void {
  ctx.waitUntil(
    (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await call();
          return;
        } catch (err) {
          const delay = RETRY_DELAYS_MS[attempt];
          if (delay === undefined) {
            console.error('a call after the answer failed on every try', err);
            return;
          }
          await sleep(delay);
        }
      }
    })(),
  );
}
