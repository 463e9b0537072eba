import { describe, expect, it } from 'vitest';
import { queueLength } from '../../src/image/job-queue';
import { wasmEngine } from '../../src/image/wasm';
import { call, createKey, fixture, form } from '../helpers/api';

const PER_CLIENT = 300;

/**
 * Issue 35 item 6, narrowed from what the mixed soak (mixed-paths.soak.ts) found on 2026-12-03: two clients,
 * each sending one small honest compression after another on one key, and at about the 513th job in the isolate
 * workerd cancels both waiting requests as hung ("the Worker's code had hung and would never generate a
 * response"), and every compression after them. One client alone answered 700 in a row, and the engine alone (no
 * requests) 800 from two callers: it takes jobs of two requests queued behind each other. The same under
 * `wrangler dev` (two clients of 400: 537 answered 200, 63 cancelled, answered 500). The cause and the fix:
 * src/image/turns.ts.
 */
describe('soak: two clients of honest compressions', () => {
  it(`answers ${2 * PER_CLIENT} compressions from two clients at once`, async () => {
    const { key } = await createKey('business');
    const input = await fixture('engine/testorig.jpg');
    const unanswered: string[] = [];
    let answered = 0;
    const client = async (name: string) => {
      for (let i = 0; i < PER_CLIENT && !unanswered.length; i++) {
        try {
          const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'webp' }) });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
          answered++;
        } catch (error) {
          // workerd cancelled it as hung: the rest would wait behind it, so the run stops here.
          unanswered.push(`client ${name}, compression ${i} (jobs started in the isolate: ${wasmEngine.jobsStarted()}): ${error}`);
        }
      }
    };
    await Promise.all([client('a'), client('b')]);
    console.log(`two clients: ${answered} answered; never answered: ${unanswered.length ? unanswered.join('; ') : 'none'}`);
    expect(unanswered).toEqual([]);
    expect(answered).toBe(2 * PER_CLIENT);
    expect(queueLength()).toBe(0);
  });
});
