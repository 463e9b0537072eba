import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/api';
import { mutate, prng } from '../helpers/crafted';
import { compressOutcomes, statusesThroughApi } from '../helpers/fuzz';
import { craftGif, greyPalette, LZW_CLEAR, lzwCodes, tinyFrames } from '../helpers/gif';

const INPUTS = 3_000;
const API_SAMPLE = 200;
const SEEDS = ['still.gif', 'interlaced.gif', 'transparent.gif', 'animated.gif', 'dispose.gif'];

/** Crafted lies: sizes past the screen and the file, frames far wider than the screen, clear-code runs, code sizes out of range. */
function craftedGifs(): Uint8Array[] {
  return [
    craftGif({ width: 65535, height: 65535, frames: [{ width: 1, height: 1 }] }),
    craftGif({ width: 4, height: 4, frames: [{ left: 65000, top: 65000, width: 535, height: 535, indices: new Uint8Array(1) }] }),
    craftGif({ width: 16, height: 16, frames: [{ width: 65535, height: 40, indices: new Uint8Array(64) }] }),
    craftGif({ width: 16, height: 16, frames: [{ width: 2000, height: 2000, interlaced: true, indices: new Uint8Array(64) }] }),
    craftGif({ width: 8, height: 8, palette: greyPalette(2), frames: [{ width: 8, height: 8, indices: new Uint8Array(64).fill(200) }] }),
    craftGif({ width: 8, height: 8, frames: [{ width: 8, height: 8, transparentIndex: 255 }] }),
    tinyFrames(100, 100, 10_000),
    // LZW data of half a million clear codes (9 bits each) before a 1x1 frame's one pixel: work without pixels.
    craftGif({ width: 1, height: 1, frames: [{ width: 1, height: 1, data: lzwCodes([...new Array<number>(500_000).fill(LZW_CLEAR), 0, 257]) }] }),
    // Animations: frames past the screen, disposal 3 and 2 off it, a later frame's LZW cut short, exactly 50 MP of frames.
    craftGif({ width: 8, height: 8, frames: [{ width: 8, height: 8 }, { left: 6, top: 6, width: 4000, height: 30, disposal: 3, indices: new Uint8Array(64) }, { left: 9, top: 9, width: 4, height: 4, disposal: 2 }] }),
    craftGif({ width: 8, height: 8, frames: [{ width: 8, height: 8, disposal: 3 }, { width: 8, height: 8, data: Uint8Array.from([0xff, 0xff]) }] }),
    tinyFrames(100, 100, 5_000),
  ];
}

describe('fuzz: mutated and crafted GIF inputs', () => {
  it(`decode or a 4xx, never a crash or a 5xx, over ${INPUTS} mutations and the crafted lies`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(`gif/${name}`)));
    const inputs = [...craftedGifs(), ...Array.from({ length: INPUTS }, (_, n) => mutate(seeds[n % seeds.length]!, n))];
    const { outcomes, failures, slowestMs, slowestInput } = await compressOutcomes(inputs.length, (n) => inputs[n]!, (n) => {
      const random = prng(n + 11);
      const format = (['png', 'jpeg', 'webp', 'auto'] as const)[Math.floor(random() * 4)]!;
      return { quality: 75, format, acceptsWebp: random() < 0.5, anim: random() < 0.5 };
    });
    console.log(`fuzz GIF: ${inputs.length} inputs, outcomes ${JSON.stringify(outcomes)}, slowest ${slowestMs.toFixed(1)} ms (input ${slowestInput})`);
    expect(failures).toEqual([]);
  });

  it(`answers a sample of ${API_SAMPLE} through the API with 200 or a JSON 4xx`, async () => {
    const seeds = await Promise.all(SEEDS.map((name) => fixture(`gif/${name}`)));
    const statuses = await statusesThroughApi(API_SAMPLE, (n) => mutate(seeds[n % seeds.length]!, n * 31 + 7));
    console.log(`fuzz GIF via API: ${JSON.stringify(statuses)}`);
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
  });
});
