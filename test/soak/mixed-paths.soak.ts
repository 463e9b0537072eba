import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { queueLength } from '../../src/image/job-queue';
import { wasmEngine } from '../../src/image/wasm';
import { admission } from '../../src/limits/admission';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { pngChunk, text } from '../container/synth';
import { call, createKey, fixture, form, toBase64 } from '../helpers/api';
import { blackPng, huffmanGroupsWebp, prng, scanBombJpeg } from '../helpers/crafted';
import { LOOPBACK, SAME_ORIGIN } from '../helpers/dashboard';
import { zlibAfterEmptyBlocks } from '../helpers/deflate-work';
import { pngFile } from '../helpers/png';
import { nextTurn } from '../helpers/wait';
import { fakeNetwork, publicHost } from '../url/fake-network';

/** HTTP requests the soak sends after its reference pass; `SOAK_REQUESTS=500 npm run soak` sends fewer. */
const REQUESTS = env.SOAK_REQUESTS ? Number(env.SOAK_REQUESTS) : 2000;
/** Cases in flight at once, as several clients of one isolate (`SOAK_LANES`). */
const LANES = env.SOAK_LANES ? Number(env.SOAK_LANES) : 4;
/**
 * A request not answered within this is counted as never answered (and the soak goes on without it): not a
 * speed bound, far past the engine's watchdog (5 s without a hand-back) and a key's CPU budget.
 */
const UNANSWERED_AFTER_MS = 120_000;
const MIB = 1_048_576;
const realSetTimeout = globalThis.setTimeout;

/** What a case's answer is compared on: status, format and a digest of the bytes, or status and error code. */
type Answer = string;

interface Case {
  name: string;
  /** An honest request (a good image, good fields), or one the Worker refuses. */
  honest: boolean;
  run: (n: number) => Promise<Answer>;
}

async function digest(bytes: ArrayBuffer): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...hash.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An answer as the soak compares it: a 200 by status, format and bytes; anything else by status and error code. */
async function answerOf(response: Response): Promise<Answer> {
  const body = await response.arrayBuffer();
  if (response.status === 200) return `200 ${response.headers.get('X-Output-Format') ?? response.headers.get('Content-Type')} ${body.byteLength} ${await digest(body)}`;
  const type = response.headers.get('Content-Type') ?? '';
  const code = type.startsWith('application/json') ? (JSON.parse(new TextDecoder().decode(body)) as { error?: string }).error : type.split(';')[0];
  return `${response.status} ${code}`;
}

/** A client address of a /24 of its own for request `n` (the demo's and the unknown keys' limits are per network). */
const network = (n: number, first: number) => `${first}.${(n >> 8) & 255}.${n & 255}.7`;

/** Damages a copy of good data past its header, so the codec itself meets the error (and its instance is replaced). */
function corrupt(bytes: Uint8Array, seed: number): Uint8Array {
  const copy = bytes.slice();
  const random = prng(seed);
  for (let i = 0; i < 16; i++) copy[64 + Math.floor(random() * (copy.length - 64))]! ^= 0xff;
  return copy;
}

const HONEST_INPUTS = [
  'engine/testorig.jpg',
  'engine/progressive.jpg',
  'engine/grey.jpg',
  'orientation/Landscape_6.jpg',
  'api/chelsea.png',
  'engine/pngsuite/basn6a08.png',
  'engine/pngsuite/basn3p08.png',
  'engine/test.webp',
  'engine/lossless1.webp',
  'engine/lossy_alpha4.webp',
];
/** Every output, auto with each Accept a browser or client sends, and a few qualities and sizes. */
const OUTPUTS: Array<{ fields: Record<string, string>; accept?: string }> = [
  { fields: { format: 'jpeg' } },
  { fields: { format: 'png' } },
  { fields: { format: 'webp', quality: '60' } },
  { fields: { format: 'avif' } },
  { fields: { format: 'auto' }, accept: 'image/avif,image/webp,*/*' },
  { fields: { format: 'auto', quality: '90' }, accept: 'image/webp,*/*' },
  { fields: {} },
  { fields: { format: 'jpeg', maxWidth: '64' } },
];
const IMAGE_URL = 'https://images.example.com/photo.png';
const FAILING_URL_CASE = 'a url that answers 404 (502 url_fetch_failed)';

/** The mix: every path of the Worker, honest and refused, each case a few HTTP requests at most. */
async function makeCases(send: typeof call): Promise<Case[]> {
  const files = Object.fromEntries(await Promise.all(HONEST_INPUTS.map(async (name) => [name, await fixture(name)] as const)));
  const bad = async (name: string) => fixture(`bad/${name}`);
  const keys = await Promise.all(Array.from({ length: 6 }, () => createKey('business')));
  const freeKey = await createKey('free');
  const keyFor = (n: number) => keys[n % keys.length]!.key;
  const compress = (n: number, body: FormData | string, accept?: string, key = keyFor(n)) =>
    send('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key, ...(accept ? { Accept: accept } : {}), ...(typeof body === 'string' ? { 'Content-Type': 'application/json' } : {}) },
      body,
    });
  const cases: Case[] = [];
  const add = (name: string, honest: boolean, run: Case['run']) => cases.push({ name, honest, run });

  for (const input of HONEST_INPUTS) {
    for (const { fields, accept } of OUTPUTS) {
      add(`${input} ${JSON.stringify(fields)} Accept ${accept ?? '-'}`, true, async (n) => answerOf(await compress(n, form('file', files[input]!, fields), accept)));
    }
  }
  add('base64 JSON, a PNG to WebP', true, async (n) => answerOf(await compress(n, JSON.stringify({ image: toBase64(files['engine/pngsuite/basn6a08.png']!), format: 'webp' }))));
  add('base64 JSON, a JPEG to auto', true, async (n) => answerOf(await compress(n, JSON.stringify({ image: toBase64(files['engine/testorig.jpg']!) }), 'image/avif,image/webp')));
  add('a url (the network faked) to JPEG', true, async (n) => answerOf(await compress(n, JSON.stringify({ url: IMAGE_URL, format: 'jpeg' }))));
  add(FAILING_URL_CASE, false, async (n) => answerOf(await compress(n, JSON.stringify({ url: 'https://images.example.com/missing.png' }))));
  add('a url to a private address', false, async (n) => answerOf(await compress(n, JSON.stringify({ url: 'https://10.0.0.1/a.png' }))));
  add('the free key, a small PNG', true, async (n) => answerOf(await compress(n, form('file', files['engine/pngsuite/basn3p08.png']!, { format: 'png' }), undefined, freeKey.key)));

  // Fields refused, and formats unknown (asked for, or sent).
  const small = files['engine/pngsuite/basn6a08.png']!;
  for (const fields of <Array<Record<string, string>>>[{ quality: '0' }, { quality: 'high' }, { format: 'gif' }, { format: 'jxl' }, { maxWidth: '0' }, { preserve: 'everything' }]) {
    add(`fields ${JSON.stringify(fields)}`, false, async (n) => answerOf(await compress(n, form('file', small, fields))));
  }
  add('an unknown JSON field', false, async (n) => answerOf(await compress(n, JSON.stringify({ image: toBase64(small), qualty: 80 }))));
  add('malformed JSON', false, async (n) => answerOf(await compress(n, '{"image": ')));
  for (const name of ['unsupported.bmp', 'text-named.png', 'empty.png', 'jpeg-truncated.jpg', 'png-truncated.png', 'xcsn0g01.png', 'xd0n2c08.png']) {
    add(`refused input ${name}`, false, async (n) => answerOf(await compress(n, form('file', await bad(name), { format: 'webp' }))));
  }

  // Crafted and animated inputs.
  const crafted: Array<[string, Uint8Array]> = [
    ['a two-frame WebP', await bad('two-frames.webp')],
    ['an APNG (acTL before IDAT)', blackPng(16, 16, 3, [pngChunk('acTL', new Uint8Array([0, 0, 0, 2, 0, 0, 0, 0]))])],
    ['a PNG bomb (16000x16000)', await bad('png-bomb-valid-16000x16000.png')],
    ['a JPEG bomb header (65000x65000)', await bad('jpeg-bomb-header-65000x65000.jpg')],
    ['a JPEG of 151 scans', scanBombJpeg({ width: 1024, height: 1024, scans: 150 })],
    ['an arithmetic scan bomb', await fixture('engine/arithmetic-scan-bomb.jpg')],
    ['IDAT of 100,000 empty deflate blocks (1.15 MB)', pngFile({ width: 16, height: 16, colourType: 2 }, zlibAfterEmptyBlocks(new Uint8Array(16 * 49), 100_000))],
    ['an iCCP of 96,000 empty blocks', blackPng(16, 16, 3, [pngChunk('iCCP', new Uint8Array([...text('icc\0'), 0, ...zlibAfterEmptyBlocks(new Uint8Array(132), 96_000)]))])],
    ['a lossless WebP of 65,536 Huffman groups', huffmanGroupsWebp(16, 16)],
  ];
  for (const [name, input] of crafted) add(`crafted: ${name}`, false, async (n) => answerOf(await compress(n, form('file', input, { format: 'jpeg' }))));
  for (const [i, input] of ['engine/testorig.jpg', 'api/chelsea.png', 'engine/test.webp', 'engine/lossless1.webp'].entries()) {
    const damaged = corrupt(files[input]!, 1000 + i);
    add(`damaged past its header: ${input}`, false, async (n) => answerOf(await compress(n, form('file', damaged, { format: 'png' }))));
  }

  // A client that leaves after a few turns, then a compression behind it: the queue must move on (issue 35 item 6).
  add('a compression whose client leaves, then another', false, async (n) => {
    const controller = new AbortController();
    const leaving = send('/v1/compress', { method: 'POST', headers: { 'X-API-Key': keyFor(n) }, body: form('file', files['api/chelsea.png']!, { format: 'avif' }), signal: controller.signal });
    for (let turn = 0; turn < (n % 5) + 1; turn++) await nextTurn();
    controller.abort();
    await leaving.then((response) => response.arrayBuffer()).catch(() => undefined);
    return answerOf(await compress(n, form('file', files['api/chelsea.png']!, { format: 'webp' })));
  });

  // The demo, keyless.
  for (const [name, input] of [['api/chelsea.png', files['api/chelsea.png']!], ['engine/testorig.jpg', files['engine/testorig.jpg']!]] as const) {
    for (const accept of [undefined, 'image/avif,image/webp']) {
      add(`demo ${name} Accept ${accept ?? '-'}`, true, async (n) =>
        answerOf(await send('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': network(n, 100), ...(accept ? { Accept: accept } : {}) }, body: form('image', input) })),
      );
    }
  }
  add('demo: an unknown format', false, async (n) => answerOf(await send('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': network(n, 100) }, body: form('image', small, { format: 'tiff' }) })));
  add('demo: a two-frame WebP', false, async (n) => answerOf(await send('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': network(n, 100) }, body: form('image', crafted[0]![1]) })));

  // Keys and the rest of the API.
  // Their bodies carry the time and the counts so far: compared by status.
  add('GET /health', true, async () => (await answerOf(await send('/health'))).split(' ')[0]!);
  add('GET /v1/usage', true, async (n) => (await answerOf(await send('/v1/usage', { headers: { 'X-API-Key': keyFor(n) } }))).split(' ')[0]!);
  add('no key', false, async () => answerOf(await send('/v1/compress', { method: 'POST', body: form('file', small) })));
  add('an unknown key', false, async (n) =>
    answerOf(await send('/v1/compress', { method: 'POST', headers: { 'X-API-Key': `sk_live_${'x'.repeat(40)}`, 'CF-Connecting-IP': network(n, 101) }, body: form('file', small) })),
  );

  // Dashboard sign-ins: the form, the mail in the outbox, the confirmation (a new account's name), the dashboard.
  add(
    'a dashboard sign-up and sign-in',
    true,
    async (n) => {
      const email = `soak-${n}-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const client = { 'CF-Connecting-IP': network(n, 102) };
      const formPost = (fields: Record<string, string>) => ({ method: 'POST', redirect: 'manual', headers: { ...SAME_ORIGIN, ...client }, body: new URLSearchParams(fields) }) as const;
      const asked = await send('/signup', formPost({ name: 'Ada', email }));
      const steps = [asked.status];
      await asked.arrayBuffer();
      const mail = await send(`/dev/outbox/latest?to=${encodeURIComponent(email)}`, { headers: LOOPBACK });
      steps.push(mail.status);
      const token = mail.status === 200 ? new URL(((await mail.json()) as { link: string }).link).searchParams.get('token')! : '';
      const confirmed = await send('/auth/confirm', formPost({ token, name: 'Ada' }));
      steps.push(confirmed.status);
      await confirmed.arrayBuffer();
      const session = confirmed.headers.getSetCookie().find((c) => c.startsWith('__Host-session='))?.split(';')[0] ?? '';
      const dashboard = await send('/dashboard', { redirect: 'manual', headers: { Cookie: session } });
      steps.push(dashboard.status);
      await dashboard.arrayBuffer();
      return `sign-in ${steps.join(' ')}`;
    },
  );
  return cases;
}

/**
 * Issue 35 item 6: in a long mixed run against one isolate, one compression never answered and took every
 * later one with it. The soak sends every path of the Worker (keyed compressions of every input format to
 * every output, auto with AVIF and WebP accepted, base64 and url inputs with the network faked, fields and
 * formats refused, crafted, animated and damaged inputs, clients that leave, the demo, unknown keys, usage,
 * /health, dashboard sign-ins), several cases at once, in one isolate through its fetch handler. Every request
 * must be answered, and every case whose answer depends on nothing before it (all but the client that leaves)
 * answered as in a reference pass made first, on the fresh isolate, each case once and in turn.
 */
describe('soak: every path, in one isolate', () => {
  afterAll(() => vi.restoreAllMocks());

  it(`answers ${REQUESTS} requests, ${LANES} cases at a time, each as on the fresh isolate`, async () => {
    const png = await fixture('engine/pngsuite/basn6a08.png');
    fakeNetwork({ dns: publicHost('images.example.com'), sites: { [IMAGE_URL]: () => new Response(png), 'https://images.example.com/missing.png': () => new Response('no', { status: 404 }) } });
    let sent = 0;
    let statuses: Record<number, number> = {};
    const send: typeof call = async (path, init) => {
      sent++;
      const response = await call(path, init);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      return response;
    };
    const cases = await makeCases(send);
    const failingUrl = cases.find((c) => c.name === FAILING_URL_CASE)!;

    // The reference: each case once, in turn, on the fresh isolate.
    const reference: Answer[] = [];
    for (const [i, c] of cases.entries()) reference.push(await c.run(i));
    const referenceRequests = sent;
    sent = 0;
    statuses = {};

    const random = prng(35);
    const differing: string[] = [];
    const unanswered: string[] = [];
    /** What was sent and answered last, and so before the first request never answered. */
    const recent: string[] = [];
    const beforeFirst: string[] = [];
    let casesRun = 0;
    let honestRun = 0;
    let failingUrls = 0;
    let highWater = 0;
    const started = performance.now();
    const lane = async () => {
      while (sent < REQUESTS) {
        const index = Math.floor(random() * cases.length);
        const c = cases[index]!;
        const n = cases.length + casesRun++;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const deadline = new Promise<'unanswered'>((resolve) => (timer = realSetTimeout(() => resolve('unanswered'), UNANSWERED_AFTER_MS)));
        recent.push(`${n} ${c.name}: sent at request ${sent}`);
        // workerd cancels a request it finds hung (a promise nothing can settle): never answered, as a timeout is.
        const answer = await Promise.race([c.run(n).catch((error: unknown) => `cancelled: ${error}`), deadline]);
        clearTimeout(timer);
        recent.push(`${n} answered ${answer.slice(0, 40)}`);
        if (answer === 'unanswered' || answer.startsWith('cancelled: ')) {
          if (!unanswered.length) beforeFirst.push(...recent.slice(-24));
          unanswered.push(`${c.name} (case ${n}, request ${sent}): ${answer}`);
        }
        else if (answer !== reference[index]) differing.push(`${c.name} (case ${n}): ${answer}, fresh: ${reference[index]}`);
        if (c.honest) honestRun++;
        if (c === failingUrl) failingUrls++;
        highWater = Math.max(highWater, wasmEngine.memoryBytes());
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `mixed soak: ${sent} requests (${casesRun} cases drawn from ${cases.length}, ${honestRun} of them honest) in ${seconds.toFixed(0)} s, ${LANES} cases at a time, ` +
        `after a reference pass of ${referenceRequests}; answers by status ${JSON.stringify(statuses)}; unanswered ${unanswered.length}; ` +
        `answered otherwise than on the fresh isolate ${differing.length}; engine memory high-water ${(highWater / MIB).toFixed(1)} MiB (budget ${ENGINE_BUDGET_BYTES / MIB})`,
    );
    if (beforeFirst.length) console.log(`before the first request never answered:\n${beforeFirst.join('\n')}`);
    expect(unanswered).toEqual([]);
    expect(differing).toEqual([]);
    // The one 5xx of the contract: 502 url_fetch_failed, for the url whose site answers 404.
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500 && s !== '502')).toEqual([]);
    expect(statuses[502] ?? 0).toBe(failingUrls);
    expect(queueLength()).toBe(0);
    // Every request gave back what it held of the isolate: the peak since the last look, then nothing.
    admission.takePeak();
    expect(admission.takePeak()).toBe(0);
  });
});
