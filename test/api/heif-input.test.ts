import { describe, expect, it } from 'vitest';
import { readInputHeader } from '../../src/image/header/read-header';
import { wasmEngine } from '../../src/image/wasm';
import type { Bindings } from '../../src/env';
import { call, callWith, createKey, errorBody, fixture, form } from '../helpers/api';
import { craftedHeifs, gridHeic, heifParts } from '../helpers/heif-crafted';

/** HEIC is walked and not decoded yet; AVIF is decoded (avif-input.test.ts). */
const FIXTURES = ['photo.heic', 'alpha.heic', 'ten-bit.heic', 'grid.heic', 'grid-oriented.heic'];

async function upload(bytes: Uint8Array, bindings?: Partial<Bindings>): Promise<Response> {
  const { key } = await createKey('business');
  const init = { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', bytes, { format: 'jpeg' }) };
  return bindings ? callWith(bindings, '/v1/compress', init) : call('/v1/compress', init);
}

/** The answer is the error's JSON, and the engine never started: everything was decided from the header. */
async function refusedFromHeader(response: () => Promise<Response>): Promise<{ status: number; error: string; message: string }> {
  const jobsBefore = wasmEngine.jobsStarted();
  const answer = await response();
  expect(answer.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await errorBody(answer);
  expect(wasmEngine.jobsStarted()).toBe(jobsBefore);
  return { status: answer.status, ...body };
}

describe('HEIC input, walked and not decoded yet (issue 38)', async () => {
  for (const name of FIXTURES) {
    it(`${name} is recognised, its size read, and refused as other formats are: 400 unsupported_image`, async () => {
      const bytes = await fixture(`heif/${name}`);
      const answer = await refusedFromHeader(() => upload(bytes));
      expect(answer).toMatchObject({ status: 400, error: 'unsupported_image' });
      expect(answer.message).toMatch(new RegExp(`^The data is a HEIC image \\(\\d+x\\d+\\), which is recognised but not decoded yet`));
    });
  }

  it('HEIC_INPUT=off refuses HEIC with 400 unsupported_image saying why, and leaves AVIF decoded; on, or unset, HEIC is walked', async () => {
    const heic = await fixture('heif/grid.heic');
    const off = await refusedFromHeader(() => upload(heic, { HEIC_INPUT: 'off' }));
    expect(off).toMatchObject({ status: 400, error: 'unsupported_image' });
    expect(off.message).toMatch(/HEIC input is turned off on this service \(HEVC is patent-encumbered in some countries\)/);
    const avif = await upload(await fixture('heif/photo.avif'), { HEIC_INPUT: 'off' });
    expect(avif.status).toBe(200);
    for (const setting of [{ HEIC_INPUT: 'on' }, {}]) {
      expect((await refusedFromHeader(() => upload(heic, setting))).message).toMatch(/HEIC image \(90x60\), which is recognised/);
    }
  });

  it('the demo walks HEIC the same way', async () => {
    const answer = await refusedFromHeader(async () =>
      call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.18.250.1' }, body: form('image', await fixture('heif/photo.heic')) }),
    );
    expect(answer).toMatchObject({ status: 400, error: 'unsupported_image' });
  });

  it('a truncated HEIC is refused as truncated; a truncated bomb is named as one first', async () => {
    const bytes = await fixture('heif/grid.heic');
    const truncated = await refusedFromHeader(() => upload(bytes.subarray(0, bytes.length - 1500)));
    expect(truncated).toMatchObject({ status: 400, error: 'unsupported_image', message: 'The HEIC data is truncated: the file ends before the image does.' });
    const { cells } = await heifParts();
    const bomb = gridHeic(cells.map((c) => ({ ...c, width: 512, height: 512 })), { rows: 20, columns: 40, width: 20000, height: 10000 });
    const cut = await refusedFromHeader(() => upload(bomb.subarray(0, bomb.length - 100)));
    expect(cut).toMatchObject({ status: 413, error: 'image_too_large' });
  });

  for (const crafted of await craftedHeifs()) {
    it(`crafted: ${crafted.name} is refused from the header with ${crafted.code}`, async () => {
      const answer = await refusedFromHeader(() => upload(crafted.bytes));
      expect(answer).toMatchObject({ status: crafted.code === 'image_too_large' ? 413 : 400, error: crafted.code });
      expect(answer.message).toMatch(crafted.message);
    });
  }

  it("the engine's own AVIF, with EXIF and XMP items added by avif-items.ts, reads back through the walker", async () => {
    const { key } = await createKey('business');
    const input = await fixture('metadata/tagged.jpg');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'avif', preserve: 'copyright,creation' }) });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const plain = readInputHeader(new Uint8Array(await (await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format: 'avif' }) })).arrayBuffer()));
    const header = readInputHeader(bytes);
    expect(header).toMatchObject({ format: 'avif', complete: true, fileBytes: bytes.length, width: plain.width, height: plain.height });
  });
});
