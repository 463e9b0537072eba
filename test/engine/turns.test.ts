import { describe, expect, it } from 'vitest';
import { Turns } from '../../src/image/turns';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A waiter given its turn that does not take it within 1 s has lost its request (its timers stopped): the next
 * waiter takes the turn instead. If the passed-over waiter was alive after all (its timers only late), it waits
 * again at the back and runs, taking the turn itself when nobody holds it: before, it polled forever for a turn
 * nobody would give it (a holder passes only to those waiting when it ends).
 */
describe('Turns: a waiter whose timers stop is passed over, and runs when they start again', () => {
  it('A runs, B (timers stopped) is passed over after 1 s for C, then B runs once its timers resume', async () => {
    const turns = new Turns();
    const order: string[] = [];
    let resume: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (resume = resolve));
    let bPolls = 0;
    const a = turns.run(async () => {
      await sleep(20);
      order.push('A');
    });
    const b = turns.run(
      async () => {
        order.push('B');
      },
      async () => {
        // Its first look comes while A runs; every later one waits until its request's timers resume.
        if (bPolls++ > 0) await stopped;
        await sleep(2);
      },
    );
    const c = turns.run(async () => {
      order.push('C');
    });
    await Promise.all([a, c]);
    expect(order, 'C took the turn B did not take').toEqual(['A', 'C']);
    resume();
    const settled = await Promise.race([b.then(() => 'ran'), sleep(3000).then(() => 'still waiting')]);
    expect(settled).toBe('ran');
    expect(order).toEqual(['A', 'C', 'B']);
  });

  it('a waiter given its turn on time is never passed over', async () => {
    const turns = new Turns();
    const order: string[] = [];
    const jobs = ['A', 'B', 'C', 'D'].map((name) =>
      turns.run(async () => {
        order.push(name);
        await sleep(5);
      }),
    );
    await Promise.all(jobs);
    expect(order).toEqual(['A', 'B', 'C', 'D']);
  });
});
