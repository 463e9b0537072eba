/** A waiter looks this often whether its turn has come. */
const POLL_MS = 2;
/** A waiter given its turn that has not taken it within this has lost its request (and the timers it polls on). */
const UNTAKEN_MS = 1000;

const pollTimer = () => new Promise<void>((resolve) => setTimeout(resolve, POLL_MS));

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

  /** `poll` is how this waiter waits between looks: timers of its own request (a test gives one that stops, as a lost request's do). */
  async run<T>(job: () => Promise<T>, poll: () => Promise<void> = pollTimer): Promise<T> {
    const me: Waiter = { started: false, givenAt: 0 };
    if (this.#holder) {
      this.#waiting.push(me);
      while (this.#holder !== me) {
        await poll();
        // Passed over while alive (its timer late past UNTAKEN_MS): it waits again, at the back.
        if (this.#holder !== me && !this.#waiting.includes(me)) this.#waiting.push(me);
        // Nobody holds it (its holder ended while this waiter was passed over), or its holder lost its request.
        const holder = this.#holder;
        if (!holder || (!holder.started && Date.now() - holder.givenAt > UNTAKEN_MS)) this.#pass();
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
