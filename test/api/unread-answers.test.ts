import { beforeAll, describe, expect, it } from 'vitest';
import { admission } from '../../src/limits/admission';
import { LARGEST_REQUEST_BYTES } from '../../src/limits/sizes';
import { call, createKey, errorBody, form } from '../helpers/api';
import { noisePng } from '../helpers/crafted';
import { until } from '../helpers/wait';

/** Incompressible: its lossless answer is about as large as it is. */
let noise: Uint8Array;
beforeAll(async () => {
  noise = await noisePng(420, 420, { channels: 3 });
});

function compress(key: string): Promise<Response> {
  return call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', noise, { format: 'png', quality: '100' }) });
}

/** What requests hold of the isolate's bytes now. */
function heldNow(): number {
  admission.takePeak();
  return admission.takePeak();
}

const size = (response: Response) => Number(response.headers.get('X-Compressed-Size'));

describe('answers not yet read by their clients count in the isolate budget (issue 35, item 5)', () => {
  it('an answer holds its bytes until its client has read it, or has left', async () => {
    expect(heldNow()).toBe(0);
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++) answers.push(await compress((await createKey('free')).key));
    const [read, left, last] = answers as [Response, Response, Response];
    for (const answer of answers) expect(answer.status).toBe(200);
    const unread = answers.reduce((sum, answer) => sum + size(answer), 0);
    expect(unread).toBeGreaterThan(3 * 400_000);
    expect(heldNow(), 'three answers not read yet').toBeGreaterThanOrEqual(unread);
    expect(heldNow()).toBeLessThan(unread + 3 * 64 * 1024);

    expect((await read.arrayBuffer()).byteLength).toBe(size(read));
    expect(heldNow(), 'one read').toBeLessThanOrEqual(unread - size(read) + 2 * 64 * 1024);
    await left.body!.cancel();
    // The runtime tells the Worker's side on a later turn.
    await until(() => heldNow() <= size(last) + 64 * 1024);
    await last.arrayBuffer();
    expect(heldNow(), 'all sent').toBe(0);
  });

  it("one account's unread answers fill its share: its next upload is 503 until it reads them", async () => {
    const account = await createKey('free');
    const unread: Response[] = [];
    for (;;) {
      const response = await compress(account.key);
      if (response.status !== 200) {
        expect(response.status).toBe(503);
        expect((await errorBody(response)).message).toMatch(/already hold the most one account or network may hold/);
        break;
      }
      unread.push(response);
      expect(unread.length, 'refused before its share is passed').toBeLessThan(LARGEST_REQUEST_BYTES / 400_000);
    }
    const held = unread.reduce((sum, answer) => sum + size(answer), 0);
    expect(held + noise.length).toBeGreaterThan(LARGEST_REQUEST_BYTES - 2 * 64 * 1024);
    for (const answer of unread) await answer.arrayBuffer();
    expect(heldNow()).toBe(0);
    const after = await compress(account.key);
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });
});
