import { describe, expect, it } from 'vitest';
import { compress, errorBody, fixture, toBase64 } from '../helpers/api';
import { responseImage } from '../helpers/images';
import { pixelPng } from '../helpers/png';
import { referenceJpegPixels, referencePixels } from '../engine/helpers';
import { wasmEngine } from '../../src/image/wasm';
import { PROGRESS_DECODED } from '../../src/image/wasm/abi';

/** x in red and green (low and high byte), y in blue: every pixel of a cut names where it came from. */
const coordinates = (width: number, height: number) => pixelPng(width, height, 3, (x, y) => [x & 255, x >> 8, y & 255]);

/** Left third red, middle green, right third blue; for JPEG input, the bands survive compression. */
const thirds = (width: number, height: number, across = true) =>
  pixelPng(width, height, 3, (x, y) => {
    const band = Math.floor(((across ? x : y) * 3) / (across ? width : height));
    return [band === 0 ? 230 : 20, band === 1 ? 230 : 20, band === 2 ? 230 : 20];
  });

const LARGE = coordinates(600, 400);
const SMALL = coordinates(60, 40);

async function asJpeg(png: Uint8Array): Promise<Uint8Array> {
  const response = await compress(png, { format: 'jpeg', quality: '95' });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

async function pixels(response: Response) {
  const { bytes, header } = await responseImage(response);
  const rgba = header.format === 'jpeg' ? await referenceJpegPixels(bytes) : await referencePixels(bytes, header.format as 'png' | 'webp');
  const at = (x: number, y: number) => Array.from(rgba.subarray((y * header.width + x) * 4, (y * header.width + x) * 4 + 4));
  return { header, at };
}

type Case = [name: string, source: 'large' | 'small', fields: Record<string, string>, size: [number, number], crop: string | null, notes: string[]];

/** decisions.md's fit table, for a 600x400 source and a 60x40 one; crop is X-Crop (left,top,width,height). */
const FIT_TABLE: Case[] = [
  ['scale-down into a square box', 'large', { width: '300', height: '300' }, [300, 200], null, ['resized']],
  ['scale-down, width only', 'large', { width: '150' }, [150, 100], null, ['resized']],
  ['scale-down, height only', 'large', { height: '100', fit: 'scale-down' }, [150, 100], null, ['resized']],
  ['scale-down keeps a source inside the box', 'small', { width: '300', height: '300' }, [60, 40], null, []],
  ['maxWidth is scale-down, unchanged', 'large', { maxWidth: '300' }, [300, 200], null, ['resized']],
  ['maxWidth and maxHeight', 'large', { maxWidth: '300', maxHeight: '100' }, [150, 100], null, ['resized']],
  ['contain shrinks', 'large', { width: '300', height: '300', fit: 'contain' }, [300, 200], null, ['resized']],
  ['contain enlarges', 'small', { width: '300', height: '300', fit: 'contain' }, [300, 200], null, ['resized']],
  ['contain, height only', 'large', { height: '800', fit: 'contain' }, [1200, 800], null, ['resized']],
  ['cover a square box', 'large', { width: '300', height: '300', fit: 'cover' }, [300, 300], '100,0,400,400', ['cropped', 'resized']],
  ['cover a wide box, enlarged', 'large', { width: '900', height: '300', fit: 'cover' }, [900, 300], '0,100,600,200', ['cropped', 'resized']],
  ['cover a tall box at scale 1', 'large', { width: '200', height: '400', fit: 'cover' }, [200, 400], '200,0,200,400', ['cropped']],
  ['cover enlarges a small source', 'small', { width: '300', height: '300', fit: 'cover' }, [300, 300], '10,0,40,40', ['cropped', 'resized']],
  ['crop a square box', 'large', { width: '300', height: '300', fit: 'crop' }, [300, 300], '100,0,400,400', ['cropped', 'resized']],
  ['crop a wide box, never enlarged', 'large', { width: '900', height: '300', fit: 'crop' }, [600, 300], '0,50,600,300', ['cropped']],
  ['crop keeps a small source whole', 'small', { width: '300', height: '300', fit: 'crop' }, [60, 40], null, []],
  ['crop cuts a source smaller on one side', 'small', { width: '30', height: '300', fit: 'crop' }, [30, 40], '15,0,30,40', ['cropped']],
  ['aspect-crop a square box', 'large', { width: '300', height: '300', fit: 'aspect-crop' }, [300, 300], '100,0,400,400', ['cropped', 'resized']],
  ['aspect-crop never enlarges', 'large', { width: '1000', height: '1000', fit: 'aspect-crop' }, [400, 400], '100,0,400,400', ['cropped']],
  ['aspect-crop a small source', 'small', { width: '300', height: '300', fit: 'aspect-crop' }, [40, 40], '10,0,40,40', ['cropped']],
  ['aspect-crop a tall box', 'large', { width: '100', height: '200', fit: 'aspect-crop' }, [100, 200], '200,0,200,400', ['cropped', 'resized']],
  ['pad a square box', 'large', { width: '300', height: '300', fit: 'pad' }, [300, 300], null, ['resized', 'padded']],
  ['pad enlarges a small source', 'small', { width: '300', height: '300', fit: 'pad' }, [300, 300], null, ['resized', 'padded']],
  ['pad a box of the same aspect adds nothing', 'large', { width: '300', height: '200', fit: 'pad' }, [300, 200], null, ['resized']],
];

describe('POST /v1/compress: the fit table', () => {
  for (const format of ['png', 'jpeg'] as const) {
    it.each(FIT_TABLE)(`%s, from ${format}`, async (_name, source, fields, [width, height], crop, notes) => {
      const png = source === 'large' ? LARGE : SMALL;
      const input = format === 'png' ? png : await asJpeg(png);
      const response = await compress(input, { ...fields, format });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Crop')).toBe(crop);
      const said = (response.headers.get('X-Compression-Notes') ?? '').split(', ').filter((note) => ['cropped', 'resized', 'padded'].includes(note));
      expect(said).toEqual(notes);
      const { header } = await responseImage(response);
      expect([header.width, header.height]).toEqual([width, height]);
    });
  }

  it('takes the fields as JSON too', async () => {
    const response = await compress(JSON.stringify({ image: toBase64(LARGE), width: 300, height: 300, fit: 'cover', gravity: 'left', format: 'png' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Crop')).toBe('0,0,400,400');
    const { header } = await responseImage(response);
    expect([header.width, header.height]).toEqual([300, 300]);
  });
});

describe('POST /v1/compress: gravity', () => {
  // A 200x400 cover of the 600x400 source is a cut at scale 1: every pixel is the source's.
  const sides: Array<[string, number]> = [['left', 0], ['center', 200], ['right', 400], ['top-left', 0], ['bottom-right', 400], ['0.1x0.5', 0], ['0.75x0.2', 350], ['1x1', 400]];
  it.each(sides)('%s cuts the window from column %d, pixel for pixel', async (gravity, left) => {
    const response = await compress(LARGE, { width: '200', height: '400', fit: 'cover', gravity, format: 'png' });
    expect(response.headers.get('X-Crop')).toBe(`${left},0,200,400`);
    const { at } = await pixels(response);
    for (const [x, y] of [[0, 0], [199, 0], [57, 123], [199, 399]] as const) {
      const sx = left + x;
      expect(at(x, y)).toEqual([sx & 255, sx >> 8, y & 255, 255]);
    }
  });

  it('top and bottom cut a tall source, as do focal points', async () => {
    const tall = coordinates(300, 500);
    for (const [gravity, top] of [['top', 0], ['bottom', 200], ['center', 100], ['0.5x0.9', 200], ['0.2x0.35', 25]] as const) {
      const response = await compress(tall, { width: '300', height: '300', fit: 'cover', gravity, format: 'png' });
      expect(response.headers.get('X-Crop'), gravity).toBe(`0,${top},300,300`);
      const { at } = await pixels(response);
      expect(at(10, 0), gravity).toEqual([10, 0, top & 255, 255]);
      expect(at(10, 299), gravity).toEqual([10, 0, (top + 299) & 255, 255]);
    }
  });

  it('keeps the chosen third of a JPEG decoded at a DCT scale, skipping the rest', async () => {
    // 1800x1200 to a 300x300 cover: the 1200x1200 window is decoded at 4/8 (600x600).
    const input = await asJpeg(thirds(1800, 1200));
    for (const [gravity, colour] of [['left', [230, 20, 20]], ['center', [20, 230, 20]], ['right', [20, 20, 230]]] as const) {
      const response = await compress(input, { width: '300', height: '300', fit: 'cover', gravity, format: 'jpeg' });
      expect(response.headers.get('X-Crop')).toBe(`${{ left: 0, center: 300, right: 600 }[gravity]},0,1200,1200`);
      // The window's 600 rows at 4/8, from the iMCU column it starts in: not the image's 900 columns.
      expect(wasmEngine.lastJob().units[PROGRESS_DECODED]).toBeLessThanOrEqual(600 * (600 + 16));
      const { header, at } = await pixels(response);
      expect([header.width, header.height]).toEqual([300, 300]);
      // Left, the window 0..1200 holds the red band and the green one: its first column is red.
      const rgb = at(gravity === 'left' ? 20 : gravity === 'right' ? 280 : 150, 150).slice(0, 3);
      rgb.forEach((sample, k) => expect(Math.abs(sample - colour[k]!), gravity).toBeLessThan(12));
    }
  });

  it('reads no row of a JPEG below its window, and decodes none above it', async () => {
    const input = await asJpeg(thirds(600, 1200, false));
    const response = await compress(input, { width: '600', height: '300', fit: 'cover', gravity: 'top', format: 'png' });
    expect(response.headers.get('X-Crop')).toBe('0,0,600,300');
    expect(wasmEngine.lastJob().units[PROGRESS_DECODED]).toBe(600 * 300);
    const { at } = await pixels(response);
    expect(at(300, 150)[0]).toBeGreaterThan(200);
    const middle = await compress(input, { width: '600', height: '300', fit: 'cover', format: 'png' });
    expect(middle.headers.get('X-Crop')).toBe('0,450,600,300');
    expect(wasmEngine.lastJob().units[PROGRESS_DECODED]).toBe(600 * 300);
    expect((await pixels(middle)).at(300, 150)[1]).toBeGreaterThan(200);
  });

  it('cuts the upright image: the window is in displayed pixels, whatever the EXIF orientation', async () => {
    // Landscape_6 is stored 300x450 with orientation 6, displayed 450x300, as Landscape_1 is stored.
    const fields = { width: '100', height: '100', fit: 'cover', gravity: 'right', format: 'png' };
    const turned = await compress(await fixture('orientation/Landscape_6.jpg'), fields);
    const upright = await compress(await fixture('orientation/Landscape_1.jpg'), fields);
    expect(turned.headers.get('X-Crop')).toBe('150,0,300,300');
    expect(upright.headers.get('X-Crop')).toBe('150,0,300,300');
    const a = await pixels(turned);
    const b = await pixels(upright);
    let sum = 0;
    for (let y = 0; y < 100; y += 3) for (let x = 0; x < 100; x += 3) sum += Math.abs(a.at(x, y)[0]! - b.at(x, y)[0]!);
    expect(sum / (34 * 34)).toBeLessThan(8);
  });
});

describe('POST /v1/compress: pad and background', () => {
  it('pads with the background, the image placed by gravity', async () => {
    for (const [gravity, top] of [['center', 50], ['top', 0], ['bottom', 100]] as const) {
      const response = await compress(LARGE, { width: '300', height: '300', fit: 'pad', background: '#f00', gravity, format: 'png' });
      const { at } = await pixels(response);
      if (top > 0) expect(at(150, top - 1), gravity).toEqual([255, 0, 0, 255]);
      if (top < 100) expect(at(150, top + 200), gravity).toEqual([255, 0, 0, 255]);
      const [r, , b] = at(150, top + 100);
      expect(Math.abs(r! - (300 & 255)), gravity).toBeLessThan(3); // source x 300, y 200
      expect(Math.abs(b! - 200), gravity).toBeLessThan(3);
    }
  });

  it('a transparent background keeps its alpha in PNG and WebP and is white in JPEG', async () => {
    for (const format of ['png', 'webp'] as const) {
      const response = await compress(LARGE, { width: '300', height: '300', fit: 'pad', background: 'transparent', format });
      const { at } = await pixels(response);
      expect(at(150, 10)[3], format).toBe(0);
      expect(at(150, 150)[3], format).toBe(255);
    }
    const jpeg = await compress(LARGE, { width: '300', height: '300', fit: 'pad', background: '#00000000', format: 'jpeg' });
    const { at } = await pixels(jpeg);
    for (const sample of at(150, 10).slice(0, 3)) expect(sample).toBeGreaterThan(250);
  });

  it('pads a grey image with a colour, in colour', async () => {
    const grey = pixelPng(40, 20, 1, (x) => [x * 6]);
    const response = await compress(grey, { width: '40', height: '40', fit: 'pad', background: '#0000ff', format: 'png', quality: '100' });
    const { at } = await pixels(response);
    expect(at(5, 2)).toEqual([0, 0, 255, 255]);
    expect(at(5, 20)).toEqual([30, 30, 30, 255]);
  });

  it('flattens alpha onto the background for JPEG', async () => {
    const clear = pixelPng(32, 32, 4, (x) => [255, 255, 255, x < 16 ? 0 : 255]);
    const response = await compress(clear, { background: '#000', format: 'jpeg' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Compression-Notes')).toContain('alpha-flattened');
    const { at } = await pixels(response);
    expect(at(4, 16).slice(0, 3).every((sample) => sample < 8)).toBe(true);
    expect(at(28, 16).slice(0, 3).every((sample) => sample > 247)).toBe(true);
  });

  it('refuses an enlargement past the budgets as any output too large', async () => {
    const response = await compress(SMALL, { width: '12000', height: '12000', fit: 'contain', format: 'png' });
    expect(response.status).toBe(413);
    expect((await errorBody(response)).error).toBe('image_too_large');
  });
});

describe('POST /v1/compress: bad geometry is a 400 naming the field', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ width: '0' }, 'width'],
    [{ height: '12001' }, 'height'],
    [{ width: 'wide' }, 'width'],
    [{ width: '100', fit: 'stretch' }, 'fit'],
    [{ width: '100', height: '100', fit: 'cover', gravity: 'middle' }, 'gravity'],
    [{ width: '100', height: '100', fit: 'cover', gravity: '1.5x0.5' }, 'gravity'],
    [{ width: '100', height: '100', fit: 'cover', gravity: '0.5x' }, 'gravity'],
    [{ width: '100', height: '100', fit: 'cover', gravity: '-0.1x0.5' }, 'gravity'],
    [{ width: '100', height: '100', fit: 'pad', background: '#12' }, 'background'],
    [{ width: '100', height: '100', fit: 'pad', background: 'red' }, 'background'],
    [{ width: '100', maxWidth: '100' }, 'width'],
    [{ height: '100', maxHeight: '100' }, 'height'],
    [{ width: '100', fit: 'cover' }, 'fit'],
    [{ height: '100', fit: 'pad' }, 'fit'],
    [{ fit: 'aspect-crop' }, 'fit'],
  ];
  it.each(cases)('%j names %s', async (fields, field) => {
    const response = await compress(SMALL, fields);
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe('bad_request');
    expect(body.message.startsWith(`${field}: `), body.message).toBe(true);
  });

  it('names the field in JSON too', async () => {
    const response = await compress(JSON.stringify({ image: toBase64(SMALL), width: 100, height: 100, fit: 'crop', gravity: 'north' }));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).message).toMatch(/^gravity: /);
  });
});

/** A scene for gravity=auto: a smooth background, a detailed subject (random blocks of 16 to 24 px) centred at (sx, sy), and optionally a blurred, saturated red disc centred at (bx, by). */
function scene(width: number, height: number, subject: { x: number; y: number; r: number }, blur?: { x: number; y: number; r: number }) {
  const hash = (x: number, y: number) => (Math.imul(x * 73856093 ^ y * 19349663, 2654435761) >>> 24) & 255;
  return pixelPng(width, height, 3, (x, y) => {
    const base = [90 + (60 * x) / width, 110 + (40 * y) / height, 140 - (30 * x) / width];
    if (blur) {
      const d = Math.hypot(x - blur.x, y - blur.y) / blur.r;
      const w = Math.exp(-d * d * 2);
      base[0] = base[0]! * (1 - w) + 250 * w;
      base[1] = base[1]! * (1 - w) + 20 * w;
      base[2] = base[2]! * (1 - w) + 30 * w;
    }
    if (Math.abs(x - subject.x) < subject.r && Math.abs(y - subject.y) < subject.r) {
      const v = hash(Math.floor(x / 20), Math.floor(y / 16));
      return [v, v * 0.9, v * 0.8];
    }
    return base;
  });
}

const holds = (crop: string | null, x: number, y: number) => {
  const [left, top, width, height] = (crop ?? '').split(',').map(Number);
  return x >= left! && x < left! + width! && y >= top! && y < top! + height!;
};

describe('POST /v1/compress: gravity=auto', () => {
  it('keeps a detailed subject on a smooth background, wherever it is, cut to the other orientation', async () => {
    for (const x of [70, 180, 300, 420, 530]) {
      const response = await compress(scene(600, 400, { x, y: 200, r: 45 }), { width: '200', height: '400', fit: 'cover', gravity: 'auto', format: 'png' });
      expect(response.status).toBe(200);
      const crop = response.headers.get('X-Crop');
      expect(holds(crop, x - 40, 200) && holds(crop, x + 40, 200), `subject at ${x}: ${crop}`).toBe(true);
      await response.arrayBuffer();
    }
    for (const y of [80, 300, 520]) {
      const response = await compress(scene(400, 600, { x: 200, y, r: 45 }), { width: '400', height: '200', fit: 'cover', gravity: 'auto', format: 'webp' });
      const crop = response.headers.get('X-Crop');
      expect(holds(crop, 200, y - 40) && holds(crop, 200, y + 40), `subject at ${y}: ${crop}`).toBe(true);
      await response.arrayBuffer();
    }
  });

  it('keeps the sharp subject rather than a blurred colourful object beside it', async () => {
    for (const [subject, blur] of [[150, 450], [450, 150]] as const) {
      const input = scene(600, 400, { x: subject, y: 200, r: 40 }, { x: blur, y: 200, r: 110 });
      const response = await compress(input, { width: '200', height: '400', fit: 'cover', gravity: 'auto', format: 'png' });
      const crop = response.headers.get('X-Crop');
      expect(holds(crop, subject - 30, 200) && holds(crop, subject + 30, 200), `subject ${subject}, blur ${blur}: ${crop}`).toBe(true);
      await response.arrayBuffer();
    }
  });

  it('finds the subject of a JPEG decoded at 1/8, and of an EXIF-turned photo in upright pixels', async () => {
    const input = await asJpeg(scene(1200, 800, { x: 950, y: 300, r: 110 }, { x: 300, y: 400, r: 200 }));
    const response = await compress(input, { width: '300', height: '400', fit: 'cover', gravity: 'auto', format: 'jpeg' });
    const crop = response.headers.get('X-Crop');
    expect(holds(crop, 870, 300) && holds(crop, 1030, 300), crop ?? '').toBe(true);
    const { header } = await responseImage(response);
    expect([header.width, header.height]).toEqual([300, 400]);
    // Landscape_N are the photo stored turned and mirrored, displayed 450x300: X-Crop is a 300x300 window of the upright
    // image, at the same place within a cell or two (the files are different encodings of the photo).
    const thumbnail = { width: '100', height: '100', fit: 'cover', gravity: 'auto', format: 'jpeg' };
    const leftOf = async (name: string) => {
      const answer = await compress(await fixture(`orientation/${name}.jpg`), thumbnail);
      await answer.arrayBuffer();
      expect(answer.headers.get('X-Crop'), name).toMatch(/^\d+,0,300,300$/);
      return Number(answer.headers.get('X-Crop')!.split(',')[0]);
    };
    const upright = await leftOf('Landscape_1');
    for (const n of [2, 3, 4, 5, 6, 7, 8]) expect(Math.abs((await leftOf(`Landscape_${n}`)) - upright), `Landscape_${n}`).toBeLessThanOrEqual(20);
  });

  it('cuts a picture with nothing in it at its centre, as gravity=center does', async () => {
    for (const [width, height, box, crop] of [[600, 400, ['200', '400'], '200,0,200,400'], [400, 600, ['400', '200'], '0,200,400,200']] as const) {
      const flat = pixelPng(width, height, 3, () => [128, 128, 128]);
      const response = await compress(flat, { width: box[0], height: box[1], fit: 'cover', gravity: 'auto', format: 'png' });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Crop'), `${width}x${height}`).toBe(crop);
      await response.arrayBuffer();
    }
  });

  it('has no effect where nothing is cut', async () => {
    const response = await compress(LARGE, { width: '300', height: '300', fit: 'pad', gravity: 'auto', format: 'png', background: '#000' });
    expect(response.headers.get('X-Crop')).toBeNull();
    const { at } = await pixels(response);
    expect(at(150, 49)).toEqual([0, 0, 0, 255]);
    expect(at(150, 250)).toEqual([0, 0, 0, 255]);
  });
});
