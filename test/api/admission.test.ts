import { afterEach, describe, expect, it, vi } from 'vitest';
import { runExclusive } from '../../src/image/job-queue';
import { admission, QUEUED_CPU_MS } from '../../src/limits/admission';
import { REQUEST_BYTES_BUDGET } from '../../src/limits/memory';
import { pngChunk } from '../container/synth';
import { call, createKey, errorBody, form, toBase64 } from '../helpers/api';
import { charged } from '../helpers/usage';
import { blackPng } from '../helpers/crafted';
import { fakeNetwork, publicHost } from '../url/fake-network';
import { until } from '../helpers/wait';

afterEach(() => {
  vi.restoreAllMocks();
});

const MiB = 1_048_576;
/** A real 64x64 PNG carrying 9.2 MiB in a private ancillary chunk: a large upload that costs the engine little. */
const LARGE = blackPng(64, 64, 3, [pngChunk('fiLl', new Uint8Array(9.2 * MiB))]);

/** Holds the engine with a job predicted to take `cpuMs` until `open()`, so admitted requests wait (holding what they hold). */
function holdEngine(cpuMs: number): { open: () => Promise<unknown> } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const running = runExclusive(cpuMs, () => gate);
  return {
    open: () => {
      open();
      return running;
    },
  };
}

/** The requests, and a promise for the moment `count` of them have been answered. */
function whenAnswered(requests: Promise<Response>[], count: number): Promise<void> {
  let answered = 0;
  return new Promise((resolve) => {
    for (const request of requests) {
      void request.finally(() => {
        if (++answered === count) resolve();
      });
    }
  });
}

function compress(key: string, init: RequestInit): Promise<Response> {
  return call('/v1/compress', { method: 'POST', ...init, headers: { 'X-API-Key': key, ...init.headers } });
}

async function expectBusy(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect((await errorBody(response)).error).toBe('service_unavailable');
  expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
}

/**
 * Six concurrent 9.2 MiB images from six free accounts while the engine is held: those that fit the
 * isolate's 24 MiB (two) wait; the others are answered 503, at once when their announced size cannot fit,
 * or when their bytes come and do not, and neither the quota nor the minute window keeps anything of them.
 */
async function sixConcurrent(send: (key: string) => Promise<Response>): Promise<void> {
  admission.takePeak();
  const engine = holdEngine(1000);
  const accounts = await Promise.all(Array.from({ length: 6 }, () => createKey('free')));
  const requests = accounts.map((account) => send(account.key));
  await whenAnswered(requests, 4);
  await engine.open();
  const responses = await Promise.all(requests);
  expect(responses.filter((r) => r.status === 200)).toHaveLength(2);
  for (const [i, response] of responses.entries()) {
    const done = response.status === 200 ? 1 : 0;
    if (done) await response.arrayBuffer();
    else await expectBusy(response);
    expect(await charged(accounts[i]!.key)).toEqual({ current: done, monthLeft: 500 - done, minuteLeft: 60 - done });
  }
  // The admitted images were counted, and the count never passed the budget.
  const peak = admission.takePeak();
  expect(peak).toBeGreaterThanOrEqual(2 * LARGE.length);
  expect(peak).toBeLessThanOrEqual(REQUEST_BYTES_BUDGET);
  expect(admission.takePeak(), 'all given back').toBe(0);
}

describe('memory counted from the first byte (issue 19, item 3)', () => {
  it('multipart uploads past the budget get 503 with Retry-After, and are charged nothing', async () => {
    await sixConcurrent((key) => compress(key, { body: form('file', LARGE) }));
  });

  it('base64 images past the budget get 503 with Retry-After, and are charged nothing', async () => {
    const body = JSON.stringify({ image: toBase64(LARGE) });
    await sixConcurrent((key) => compress(key, { headers: { 'Content-Type': 'application/json' }, body }));
  });

  it('url images past the budget get 503 with Retry-After, and are charged nothing', async () => {
    const url = 'https://images.example.com/large.png';
    const headers = { 'Content-Length': String(LARGE.length) };
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [url]: () => new Response(LARGE, { headers }) } });
    await sixConcurrent((key) => compress(key, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) }));
  });

  it('url images of unannounced size are counted as they arrive, and held once', async () => {
    const url = 'https://images.example.com/streamed.png';
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < LARGE.length; at += 256 * 1024) controller.enqueue(LARGE.slice(at, at + 256 * 1024));
          controller.close();
        },
      });
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [url]: () => new Response(streamed()) } });
    await sixConcurrent((key) => compress(key, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) }));
  });

  it('a body that does not fit is refused from its declared size, and read to its end unkept', async () => {
    // Most of the budget held, and a job in the engine predicted to take 3 s: an upload declaring 9.2 MiB cannot fit.
    const held = admission.claim();
    held.grow(REQUEST_BYTES_BUDGET - 4 * MiB);
    admission.takePeak();
    const engine = holdEngine(3000);
    const account = await createKey('free');
    const boundary = 'squeeze-admission';
    const body = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.png"\r\n\r\n`,
    );
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
    const total = body.length + LARGE.length + tail.length;
    let sent = 0;
    const parts = [body, LARGE, tail];
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 64 KiB at a time, on demand: `sent` is what the Worker has asked for so far.
        let at = sent;
        for (const part of parts) {
          if (at < part.length) {
            const chunk = part.subarray(at, at + 64 * 1024);
            sent += chunk.length;
            controller.enqueue(chunk);
            return;
          }
          at -= part.length;
        }
        controller.close();
      },
    });
    const sized = new FixedLengthStream(total);
    void source.pipeTo(sized.writable).catch(() => undefined);
    const response = await compress(account.key, {
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: sized.readable,
    });
    await expectBusy(response);
    expect(response.headers.get('Retry-After'), 'the time the queued work is predicted to take').toBe('3');
    // Read so its client hears the answer (drain-body.ts), held nowhere: no byte of it was claimed.
    expect(sent, 'bytes of the body read before the answer').toBe(total);
    expect(admission.takePeak(), 'bytes claimed while it was read: its first chunk at most').toBeLessThanOrEqual(
      REQUEST_BYTES_BUDGET - 4 * MiB + 64 * 1024,
    );
    held.release();
    await engine.open();
    expect(await charged(account.key)).toEqual({ current: 0, monthLeft: 500, minuteLeft: 60 });
  });
});

describe('the engine queue bounded by predicted CPU too (issue 19, item 4)', () => {
  it('a small but slow job behind a minute of predicted work is answered 503, and charged nothing', async () => {
    const engine = holdEngine(QUEUED_CPU_MS - 1000);
    const account = await createKey('free');
    // 2000x1500 lossless PNG output: a few seconds by the CPU model, from a few KB of input.
    const response = await compress(account.key, { body: form('file', blackPng(2000, 1500), { format: 'png', quality: '100' }) });
    await engine.open();
    await expectBusy(response);
    expect(Number(response.headers.get('Retry-After'))).toBe(59);
    expect(await charged(account.key)).toEqual({ current: 0, monthLeft: 500, minuteLeft: 60 });
  });
});

describe("one account or one client network holds at most one largest upload's share (issue 35, item 2)", () => {
  const expectOverShare = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    const body = await errorBody(response);
    expect(body.error).toBe('service_unavailable');
    expect(body.message).toMatch(/already hold the most one account or network may hold/);
  };

  it("an account's second 9.2 MiB upload is 503 while its first waits for the engine; another account's waits too", async () => {
    const engine = holdEngine(1000);
    const [one, other] = await Promise.all([createKey('free'), createKey('free')]);
    admission.takePeak();
    const first = compress(one.key, { body: form('file', LARGE) });
    await until(() => admission.takePeak() >= LARGE.length);
    const second = await compress(one.key, { body: form('file', LARGE) });
    await expectOverShare(second);
    const beside = compress(other.key, { body: form('file', LARGE) });
    await until(() => admission.takePeak() >= 2 * LARGE.length);
    await engine.open();
    for (const response of await Promise.all([first, beside])) {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(await charged(one.key)).toEqual({ current: 1, monthLeft: 499, minuteLeft: 59 });
  });

  it("a network's demo uploads hold at most the same share, whatever their addresses; another network's are admitted", async () => {
    const engine = holdEngine(1000);
    const image = blackPng(64, 64, 3, [pngChunk('fiLl', new Uint8Array(4.5 * MiB))]);
    const demo = (ip: string) => call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: form('image', image) });
    admission.takePeak();
    const admitted = [demo('198.51.101.1'), demo('198.51.101.2')];
    await until(() => admission.takePeak() >= 2 * image.length);
    const third = await demo('198.51.101.3');
    await expectOverShare(third);
    expect(third.headers.get('X-Demo-Remaining'), 'charged nothing').toBe('5');
    admitted.push(demo('198.51.102.1'));
    await until(() => admission.takePeak() >= 3 * image.length);
    await engine.open();
    for (const response of await Promise.all(admitted)) {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  });
});
