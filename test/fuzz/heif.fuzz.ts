import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/api';
import { mutate, prng } from '../helpers/crafted';
import { compressOutcomes, statusesThroughApi } from '../helpers/fuzz';
import { craftedHeifs } from '../helpers/heif-crafted';
import { readInputHeader } from '../../src/image/header/read-header';
import { isAvif } from '../../src/image/types';

const INPUTS = 10_000;
const API_SAMPLE = 300;
const AV1_INPUTS = 2_000;
const AVIF_SEEDS = ['photo.avif', 'ten-bit-alpha.avif', 'grid.avif', 'oriented.avif'];
const SEEDS = ['photo.heic', 'alpha.heic', 'ten-bit.heic', 'grid.heic', 'grid-oriented.heic', 'photo.avif', 'ten-bit-alpha.avif', 'grid.avif', 'oriented.avif'];

/** The generic mutations on odd inputs; on even ones a 32-bit field inside the meta box set to a size that lies. */
function mutateHeif(bytes: Uint8Array, n: number): Uint8Array {
  if (n % 2) return mutate(bytes, n);
  const random = prng(n * 40503 + 1);
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  // ftyp comes first; meta follows it.
  const meta = view.getUint32(0);
  const metaEnd = Math.min(out.length - 4, meta + view.getUint32(meta));
  for (let i = 0, k = 1 + Math.floor(random() * 3); i < k; i++) {
    const at = meta + Math.floor(random() * (metaEnd - meta));
    view.setUint32(at, [0, 1, 0xffffffff, 0x7fffffff, 0x10000, out.length, view.getUint32(at) + 1][Math.floor(random() * 7)]!);
  }
  return out;
}

/** The AVIF with bytes of its AV1 data (every cell's and its alpha's extents) flipped, zeroed or set to 0xff: its container still walks, so libaom reads each. */
function mutateAv1(bytes: Uint8Array, n: number): Uint8Array {
  const header = readInputHeader(bytes);
  if (!isAvif(header)) throw new Error('an AVIF seed');
  const extents = [...header.heif.primary.tiles, ...(header.heif.alpha?.tiles ?? [])].flatMap((tile) => tile.extents);
  const random = prng(n * 69069 + 5);
  const out = bytes.slice();
  for (let i = 0, k = 1 + Math.floor(random() * 12); i < k; i++) {
    const { offset, length } = extents[Math.floor(random() * extents.length)]!;
    // Most of a still picture's headers sit in its first bytes: half the changes go there.
    const at = offset + Math.floor(random() * (random() < 0.5 ? Math.min(length, 32) : length));
    out[at] = [out[at]! ^ (1 << Math.floor(random() * 8)), 0, 0xff][Math.floor(random() * 3)]!;
  }
  return out;
}

describe('fuzz: mutated and crafted HEIC and AVIF inputs', () => {
  it(`AVIF whose AV1 data is mutated (${AV1_INPUTS} inputs) decodes or is refused 4xx by the engine, never a crash or a 5xx`, async () => {
    const seeds = await Promise.all(AVIF_SEEDS.map((name) => fixture(`heif/${name}`)));
    const { outcomes, failures, slowestMs } = await compressOutcomes(
      AV1_INPUTS,
      (n) => mutateAv1(seeds[n % seeds.length]!, n),
      () => ({ quality: 75, format: 'png', acceptsWebp: false }),
    );
    console.log(`fuzz AV1 data: ${AV1_INPUTS} inputs, outcomes ${JSON.stringify(outcomes)}, slowest ${slowestMs.toFixed(1)} ms`);
    expect(failures).toEqual([]);
  });

  it(`walk to a 4xx, never a crash or a 5xx, over ${INPUTS} mutations and every crafted lie`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(`heif/${name}`)));
    const inputs = [...(await craftedHeifs()).map((c) => c.bytes), ...Array.from({ length: INPUTS }, (_, n) => mutateHeif(seeds[n % seeds.length]!, n))];
    const { outcomes, failures, slowestMs, slowestInput } = await compressOutcomes(
      inputs.length,
      (n) => inputs[n]!,
      () => ({ quality: 75, format: 'jpeg', acceptsWebp: false }),
    );
    console.log(`fuzz HEIF: ${inputs.length} inputs, outcomes ${JSON.stringify(outcomes)}, slowest ${slowestMs.toFixed(1)} ms (input ${slowestInput})`);
    expect(failures).toEqual([]);
  });

  it(`answers a sample of ${API_SAMPLE} through the API with 200 or a JSON 4xx`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(`heif/${name}`)));
    const statuses = await statusesThroughApi(API_SAMPLE, (n) => mutateHeif(seeds[n % seeds.length]!, n * 31 + 7));
    console.log(`fuzz HEIF via API: ${JSON.stringify(statuses)}`);
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
  });
});
