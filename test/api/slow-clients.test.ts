import { describe, expect, it, vi } from 'vitest';
import { BODY_DEADLINE_MS, BODY_GRACE_MS } from '../../src/input/body-pace';
import { admission } from '../../src/limits/admission';
import { ENVELOPE_BYTES } from '../../src/limits/sizes';
import { pngChunk } from '../container/synth';
import { callWith, createKey, errorBody, form } from '../helpers/api';
import { pinClock } from '../helpers/clock';
import { blackPng } from '../helpers/crafted';
import { charged } from '../helpers/usage';
import { until } from '../helpers/wait';

const KiB = 1024;
const MiB = 1_048_576;
/** What a body being read holds before its image: its envelope and the chunk in hand. */
const READING = ENVELOPE_BYTES + 64 * KiB;
/** A real 64x64 PNG carrying 9.2 MiB in a private ancillary chunk: an honest large upload that costs the engine little. */
const LARGE = blackPng(64, 64, 3, [pngChunk('fiLl', new Uint8Array(9.2 * MiB))]);
const BOUNDARY = 'slow-client';
const encoder = new TextEncoder();
/** The head of a multipart body's image part, all a slow upload sends at first. */
const partHead = (field: string) => encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="x.png"\r\n\r\n`);

/** The clock and the timers of the Worker's code (the body's pace, the engine's hand-backs), moved by the test. */
const fakeClock = () => pinClock(Date.now(), 'setTimeout', 'clearTimeout');

/**
 * The Worker's fetch handler, run in the test's own request: a timer set inside a request of the Worker
 * must fire in that request (workerd), so the fake timers the test moves must be set there.
 */
const call = (path: string, init: RequestInit) => callWith({}, path, init);

/** Moves the fake clock by `ms`, running what falls due on the way. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Runs the clock a millisecond a turn until `answer` settles: an honest request, whose engine hands back on timers. */
async function whileTimeRuns(answer: Promise<Response>): Promise<Response> {
  let settled = false;
  void answer.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) await advance(1);
  return answer;
}

interface SlowUpload {
  /** Sends `bytes` more of the body. */
  send(bytes: Uint8Array): void;
  /** Ends the body. */
  end(): void;
  /** Whether the Worker has read all that was sent. */
  caughtUp(): boolean;
  /** The answer, once there is one. */
  answer(): Response | undefined;
  answered: Promise<Response>;
}

/**
 * A multipart upload that announces `declared` bytes (Content-Length) and sends only its part's head and
 * whatever `send` gives it, as a client on a slow or stalled link would.
 */
function slowUpload(path: string, headers: Record<string, string>, declared: number): SlowUpload {
  const sized = new FixedLengthStream(declared);
  const writer = sized.writable.getWriter();
  let read = 0;
  let sent = 0;
  const send = (bytes: Uint8Array) => {
    sent += bytes.length;
    void writer.write(bytes).then(
      () => (read += bytes.length),
      () => undefined,
    );
  };
  send(partHead(path === '/v1/compress' ? 'file' : 'image'));
  let response: Response | undefined;
  const answered = call(path, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: sized.readable,
  });
  void answered.then((r) => (response = r)).catch(() => undefined);
  return { send, end: () => void writer.close().catch(() => undefined), caughtUp: () => read === sent, answer: () => response, answered };
}

async function expectTimedOut(response: Response, message: RegExp): Promise<void> {
  expect(response.status).toBe(408);
  const body = await errorBody(response);
  expect(body.error).toBe('request_timeout');
  expect(body.message).toMatch(message);
}

/** Everything held of the isolate's bytes has been given back. */
function expectAllGivenBack(): void {
  admission.takePeak();
  expect(admission.takePeak(), 'what requests hold of the isolate now').toBe(0);
}

describe('a slow client holds nothing for long (issue 35, item 2)', () => {
  it('a body that trickles is answered 408 request_timeout just after its first 5 s, its claim given back, nothing charged', async () => {
    fakeClock();
    const account = await createKey('free');
    admission.takePeak();
    const upload = slowUpload('/v1/compress', { 'X-API-Key': account.key }, 14_000_000);
    await until(upload.caughtUp);
    for (let second = 1; second < BODY_GRACE_MS / 1000; second++) {
      await advance(1000);
      upload.send(new Uint8Array(16));
      await until(upload.caughtUp);
    }
    await advance(900);
    expect(upload.answer(), 'still read within its first 5 s').toBeUndefined();
    expect(admission.takePeak(), 'what it held: what came, not the 14,000,000 bytes it announced').toBeLessThan(READING + 1000);
    await advance(200);
    await until(() => upload.answer() !== undefined);
    await expectTimedOut(upload.answer()!, /bytes came in 5\.0 s, under 64 KiB\/s after the first 5 s/);
    expectAllGivenBack();
    expect(await charged(account.key)).toEqual({ current: 0, monthLeft: 500, minuteLeft: 60 });
  });

  it('a body that keeps to 64 KiB/s after its first 5 s is read to its end, and one that is still coming at 30 s is cut', async () => {
    fakeClock();
    const account = await createKey('free');
    const image = blackPng(64, 64, 3, [pngChunk('fiLl', new Uint8Array(700 * KiB))]);
    const tail = encoder.encode(`\r\n--${BOUNDARY}--\r\n`);
    const steady = slowUpload('/v1/compress', { 'X-API-Key': account.key }, partHead('file').length + image.length + tail.length);
    // Nothing for 5 s, then 70 KiB a second: late at no moment.
    await until(steady.caughtUp);
    await advance(BODY_GRACE_MS - 100);
    for (let at = 0; at < image.length; at += 70 * KiB) {
      steady.send(image.subarray(at, at + 70 * KiB));
      await until(steady.caughtUp);
      await advance(1000);
    }
    steady.send(tail);
    steady.end();
    const response = await whileTimeRuns(steady.answered);
    expect(response.status).toBe(200);
    await response.arrayBuffer();

    // 100 KiB a second keeps to the rate, but not to the deadline of a body that has not ended by 30 s.
    const endless = slowUpload('/v1/compress', { 'X-API-Key': account.key }, 14_000_000);
    await until(endless.caughtUp);
    for (let second = 1; second < BODY_DEADLINE_MS / 1000; second++) {
      endless.send(new Uint8Array(100 * KiB));
      await until(endless.caughtUp);
      await advance(1000);
    }
    expect(endless.answer()).toBeUndefined();
    await advance(1000);
    await until(() => endless.answer() !== undefined);
    await expectTimedOut(endless.answer()!, /it took more than 30 s/);
    expectAllGivenBack();
  });

  /**
   * Slow uploads that announce large bodies and send 16 bytes every few seconds, then an honest 9.2 MiB
   * upload from another account while they are all still open: it is answered 200, and the slow ones are
   * cut 408 once they fall behind, holding nothing after.
   */
  async function honestUploadBeside(slow: () => SlowUpload[]): Promise<void> {
    fakeClock();
    admission.takePeak();
    const uploads = slow();
    await until(() => uploads.every((upload) => upload.caughtUp()));
    await advance(3000);
    for (const upload of uploads) upload.send(new Uint8Array(16));
    await until(() => uploads.every((upload) => upload.caughtUp()));
    expect(admission.takePeak(), 'the slow uploads hold what came').toBeLessThan(uploads.length * (READING + 1000));

    const honest = await createKey('free');
    const response = await whileTimeRuns(call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': honest.key }, body: form('file', LARGE) }));
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(uploads.filter((upload) => upload.answer()), 'the slow uploads were all still open').toEqual([]);

    await advance(BODY_GRACE_MS);
    await until(() => uploads.every((upload) => upload.answer()));
    for (const upload of uploads) await expectTimedOut(upload.answer()!, /under 64 KiB\/s/);
    expectAllGivenBack();
  }

  it('three slow uploads announcing 14,000,000, 14,000,000 and 3,700,000 bytes do not turn an honest upload into a 503', async () => {
    const attacker = await createKey('free');
    await honestUploadBeside(() => [14_000_000, 14_000_000, 3_700_000].map((declared) => slowUpload('/v1/compress', { 'X-API-Key': attacker.key }, declared)));
    expect(await charged(attacker.key)).toEqual({ current: 0, monthLeft: 500, minuteLeft: 60 });
  });

  it("five slow demo uploads announcing the demo's largest body do not turn an honest upload into a 503", async () => {
    await honestUploadBeside(() => Array.from({ length: 5 }, () => slowUpload('/v1/demo-compress', { 'CF-Connecting-IP': '198.51.100.7' }, 7_000_000)));
    // Nothing was charged: the address has its five requests of the hour.
    const response = await call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.51.100.7' }, body: form('image', blackPng(8, 8)) });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Demo-Remaining')).toBe('4');
  });
});
