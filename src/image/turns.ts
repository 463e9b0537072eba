/** A waiter looks this often whether its turn has come. */
const POLL_MS = 2;
/** A waiter given its turn that has not taken it within this has lost its request (and the timers it polls on). */
const UNTAKEN_MS = 1000;

interface Waiter {
  started: boolean;
  givenAt: number;
}

/**
 * One job at a time, each run in its own request. workerd runs a promise's reactions in the request that
 * settles it, and a job's hand-backs of the event loop are timers of the request it runs in: a job chained
 * on the one before it (`previous.then(job)`) ran in the earlier request, and so did every job chained after
 * it while two clients kept the queue full, until workerd cancelled them all as code that would never answer
 * (about the 514th job; issue 35 item 6, test/soak/two-clients.soak.ts). A promise the waiter made, settled by
 * the job before it, was cancelled the same way at once. So a waiter polls on timers of its own request, and
 * starts its job from one of them.
 */
export class Turns {
  #holder: Waiter | undefined;
  readonly #waiting: Waiter[] = [];

  async run<T>(job: () => Promise<T>): Promise<T> {
    const me: Waiter = { started: false, givenAt: 0 };
    if (this.#holder) {
      this.#waiting.push(me);
      while (this.#holder !== me) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        // Passed over while alive (its timer late past UNTAKEN_MS): it waits again, at the back.
        if (this.#holder !== me && !this.#waiting.includes(me)) this.#waiting.push(me);
        const holder = this.#holder;
        if (holder && !holder.started && Date.now() - holder.givenAt > UNTAKEN_MS) this.#pass();
      }
    }
    this.#holder = me;
    me.started = true;
    try {
      return await job();
    } finally {
      if (this.#holder === me) this.#pass();
    }
  }

  #pass(): void {
    const next = this.#waiting.shift();
    if (next) next.givenAt = Date.now();
    this.#holder = next;
  }
}
