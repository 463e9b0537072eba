import { describe, expect, it } from 'vitest';
import { idatLimit, MAX_ICCP_BYTES, MAX_TEXT_BYTES } from '../../src/image/header/png-header';
import { compressImage } from '../../src/image/pipeline';
import { encoderQuality } from '../../src/image/quality-scale';
import { profileReadMs } from '../../src/image/wasm/cpu-model';
import { readHeader } from '../../src/image/header/read-header';
import { readIccProfile } from '../../src/image/container';
import { inflateBounded } from '../../src/image/container/bounded-inflate';
import { chrmProfile } from '../../src/image/container/chrm-profile';
import { wasmEngine } from '../../src/image/wasm';
import { ADOBE_RGB_CHRM, chrmData } from '../container/chrm-synth';
import { pngChunk, text } from '../container/synth';
import { compress, errorBody } from '../helpers/api';
import { blackPng, iccBombChunk } from '../helpers/crafted';
import { emptyBlocks, zlibAfterEmptyBlocks } from '../helpers/deflate-work';
import { pngFile, zlibStored } from '../helpers/png';
import { apiErrorOf, expectUnsupported } from '../helpers/errors';

/** A 16x16 RGB PNG whose IDAT holds `blocks` empty deflate blocks before its rows. */
const emptyBlocksPng = (blocks: number) => pngFile({ width: 16, height: 16, colourType: 2 }, zlibAfterEmptyBlocks(new Uint8Array(16 * 49), blocks));

/** A small valid RGB profile: Adobe RGB's, as a cHRM makes it. */
const adobeRgb = chrmProfile(chrmData(...ADOBE_RGB_CHRM))!;

/** An iCCP chunk of that profile, zlib'd after `blocks` empty blocks. */
const sparseIccp = (blocks: number) => pngChunk('iCCP', new Uint8Array([...text('icc\0'), 0, ...zlibAfterEmptyBlocks(adobeRgb, blocks)]));

/**
 * Issue 35 item 1 (decisions.md "Reading is work"): input that makes an inflater work without producing
 * pixels. From the header, what deflate could never need is refused before any inflating.
 */
describe('issue 35: deflate data that makes work without output', () => {
  it('a 16x16 PNG whose IDAT holds 860,000 empty blocks (9.9 MB) is refused from its header, before the engine', async () => {
    const input = emptyBlocksPng(860_000);
    expect(input.length).toBeGreaterThan(9_000_000);
    const jobs = wasmEngine.jobsStarted();
    const response = await compress(input, { format: 'jpeg' });
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body).toEqual({ error: 'unsupported_image', message: expect.stringMatching(/image data is \d+ bytes: more than its 16x16 pixels could need/) });
    expect(wasmEngine.jobsStarted()).toBe(jobs);
  });

  it('the limits are read from the chunks\' lengths before any CRC is computed (a 9.9 MB IDAT with a broken CRC is refused for its size)', async () => {
    const input = emptyBlocksPng(860_000);
    // IDAT's CRC is the 4 bytes before IEND's 12.
    input[input.length - 13]! ^= 0xff;
    expect((await expectUnsupported(() => readHeader(input))).message).toMatch(/image data is \d+ bytes: more than its 16x16 pixels could need/);
  });

  it('an iCCP chunk larger than any profile kept could need (1 MiB + 64 KiB) is refused from the header', async () => {
    const iccp = pngChunk('iCCP', new Uint8Array([...text('icc\0'), 0, ...zlibAfterEmptyBlocks(new Uint8Array(200), 8 * 13_000)]));
    const jobs = wasmEngine.jobsStarted();
    const response = await compress(blackPng(16, 16, 3, [iccp]), { format: 'jpeg' });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({ error: 'unsupported_image', message: expect.stringMatching(/iCCP chunk is \d+ bytes: larger than any colour profile/) });
    expect(wasmEngine.jobsStarted()).toBe(jobs);
  });

  it("a 16x16 PNG whose zTXt holds 860,000 empty blocks (9.9 MB) is refused from its header: text past what libspng keeps (2 MiB) is never read", async () => {
    const ztxt = pngChunk('zTXt', new Uint8Array([...text('Comment\0'), 0, ...zlibAfterEmptyBlocks(text('a comment'), 860_000)]));
    const input = blackPng(16, 16, 3, [ztxt]);
    expect(input.length).toBeGreaterThan(9_000_000);
    const jobs = wasmEngine.jobsStarted();
    const response = await compress(input, { format: 'jpeg' });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({ error: 'unsupported_image', message: expect.stringMatching(/text chunks hold \d+ bytes: more than the 2 MiB of text it may carry/) });
    expect(wasmEngine.jobsStarted()).toBe(jobs);
  });

  it('the text limit counts tEXt, zTXt and iTXt together; text under it is read as before', async () => {
    const half = (type: 'tEXt' | 'iTXt' | 'zTXt') => pngChunk(type, new Uint8Array([...text('Comment\0'), ...new Uint8Array(MAX_TEXT_BYTES / 2 - 8).fill(97)]));
    await expectUnsupported(() => readHeader(blackPng(16, 16, 3, [half('tEXt'), half('iTXt'), half('zTXt')])));
    expect(readHeader(blackPng(16, 16, 3, [half('tEXt'), half('iTXt')])).width).toBe(16);
    const response = await compress(blackPng(16, 16, 3, [pngChunk('zTXt', new Uint8Array([...text('Comment\0'), 0, ...zlibAfterEmptyBlocks(text('a comment'), 800)]))]), { format: 'jpeg' });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it("charges the profile read's inflating to the request's CPU: a 1 MB stored iCCP adds its bytes at the PNG input rate", async () => {
    // A "profile" of zeros, stored: inflated whole (not sparse) and then dropped, as it parses as no profile.
    const iccp = pngChunk('iCCP', new Uint8Array([...text('icc\0'), 0, ...zlibStored(new Uint8Array(1_000_000))]));
    const input = blackPng(16, 16, 3, [iccp]);
    const header = readHeader(input);
    const job = wasmEngine.estimateCpuMs(header, { format: 'jpeg', quality: encoderQuality('jpeg', 80), width: 16, height: 16 });
    const profile = profileReadMs(iccp.length - 12 - 5);
    expect(profile).toBeGreaterThan(200);
    const request = { quality: 80, format: 'jpeg' as const, acceptsWebp: false, cpuBudgetMs: job + profile / 2 };
    // The job alone fits that budget; with the profile's reading charged it does not.
    const refused = await apiErrorOf(() => compressImage(input, request));
    expect(refused.code).toBe('image_too_large');
    expect(refused.message).toContain(`would take about ${((job + profile) / 1000).toFixed(1)} s of CPU`);
    expect((await compressImage(blackPng(16, 16, 3), request)).format).toBe('jpeg');
  });

  it('IDAT data under the limit is read (the engine then counts it): a few empty blocks before the rows are still an image', async () => {
    const response = await compress(emptyBlocksPng(800), { format: 'png' });
    expect(response.status).toBe(200);
    expect(emptyBlocks(8).length).toBe(92);
  });

  it('the limits: twice the filtered rows (each Adam7 pass apart) and 1 MiB; the rows stored whole are far under it', async () => {
    // 13x7 RGBA 16-bit, Adam7: passes of 2x1, 2x1, 4x1, 3x2, 7x2, 6x4, 13x3 pixels, 8 bytes each, one filter byte a row.
    const rows = [[2, 1], [2, 1], [4, 1], [3, 2], [7, 2], [6, 4], [13, 3]].reduce((n, [w, h]) => n + h! * (1 + 8 * w!), 0);
    expect(idatLimit(13, 7, 16, 6, true)).toBe(2 * rows + 1_048_576);
    const header = { width: 13, height: 7, colourType: 6, bitDepth: 16, interlaced: true };
    expect(readHeader(pngFile(header, new Uint8Array(2 * rows + 1_048_576))).width).toBe(13);
    await expectUnsupported(() => readHeader(pngFile(header, new Uint8Array(2 * rows + 1_048_577))));
    // 1-bit grey: 3 bytes a row of 17 pixels.
    expect(idatLimit(17, 5, 1, 0, false)).toBe(2 * 5 * 4 + 1_048_576);
    const photo = zlibStored(new Uint8Array(3000 * (1 + 3 * 2000)));
    expect(photo.length).toBeLessThan(idatLimit(2000, 3000, 8, 2, false) / 2);
    const profile = pngChunk('iCCP', new Uint8Array([...text('icc\0'), 0, ...new Uint8Array(MAX_ICCP_BYTES - 5)]));
    expect(readHeader(blackPng(16, 16, 3, [profile])).width).toBe(16);
  });

  it('item 7: a 64x64 PNG whose iCCP inflates to 16.7 MB is refused before the engine, its inflating stopped at 2 MiB', async () => {
    const jobs = wasmEngine.jobsStarted();
    const response = await compress(blackPng(64, 64, 3, [await iccBombChunk(255 * 65519)]), { format: 'jpeg' });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({ error: 'unsupported_image', message: expect.stringMatching(/iCCP profile takes more than 2 MiB once inflated/) });
    expect(wasmEngine.jobsStarted()).toBe(jobs);
  });

  it("the profile read stops at empty blocks (1.1 MB of them, under the header's limit) after 64 KiB and a piece: the profile is dropped", async () => {
    const stream = zlibAfterEmptyBlocks(new Uint8Array(132), 8 * 12_000);
    expect(await inflateBounded(stream, 2 * 1_048_576)).toEqual({ bytes: null, why: 'sparse', readBytes: 65 * 1024 });
    expect(await readIccProfile(blackPng(16, 16, 3, [sparseIccp(8 * 12_000)]), 'png')).toBeNull();
    // The same profile after a few empty blocks is read.
    expect(await readIccProfile(blackPng(16, 16, 3, [sparseIccp(800)]), 'png')).toEqual(adobeRgb);
  });
});
