import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import type { ImageHeader } from '../../src/image/types';
import { expectUnsupported } from '../helpers/errors';
import { fixture } from '../helpers/fixtures';
import { freshEngine, transcodeFixture } from './helpers';

const engine = freshEngine();

/** The header of the intact image, so the engine itself meets the damage. */
async function headerOf(name: string): Promise<ImageHeader> {
  return readHeader(await fixture(name));
}

/** The engine refuses `input`, read with `header`, as unsupported_image. */
async function expectEngineRefuses(input: Uint8Array, header: ImageHeader): Promise<void> {
  await expectUnsupported(() => engine.transcode(input, header, { format: 'png', quality: 80, width: header.width, height: header.height }));
}

describe('wasm engine: damaged input', () => {
  it('refuses a truncated JPEG, then the next job works on a fresh instance', async () => {
    await expectEngineRefuses(await fixture('engine/truncated.jpg'), await headerOf('engine/testorig.jpg'));
    expect(engine.memoryBytes()).toBe(0);
    const out = await transcodeFixture(engine, 'testorig.jpg', { format: 'jpeg' });
    expect(readHeader(out)).toMatchObject({ format: 'jpeg', width: 227, height: 149 });
  });

  it('refuses a truncated PNG', async () => {
    const input = await fixture('bad/png-truncated.png');
    await expectEngineRefuses(input, readHeader(input));
  });

  it('refuses corrupt JPEG scan data', async () => {
    const input = (await fixture('engine/testorig.jpg')).slice();
    input.fill(0xff, 1000, 1400);
    await expectEngineRefuses(input, readHeader(input));
  });

  it.each(['xcsn0g01.png', 'xhdn0g08.png', 'xdtn0g01.png', 'xd0n2c08.png'])('refuses PngSuite %s', async (name) => {
    const input = await fixture(`bad/${name}`);
    await expectEngineRefuses(input, await headerOf('engine/pngsuite/basn0g08.png').then((h) => ({ ...h, width: 32, height: 32 })));
    expect(await transcodeFixture(engine, 'pngsuite/basn0g08.png', { format: 'png' })).toBeInstanceOf(Uint8Array);
  });

  it('refuses pixels that do not match the header instead of enlarging', async () => {
    const input = await fixture('engine/testorig.jpg');
    const header = { ...readHeader(input), width: 4000, height: 3000 };
    await expectEngineRefuses(input, header);
  });
});
