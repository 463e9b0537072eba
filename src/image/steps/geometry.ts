import type { Box, FitMode, FocalPoint, Gravity, OutputSpec, Rgba, Size } from '../types';

/** What the request asks of the image's size and framing (decisions.md, "Geometry: boxes, fit modes and gravity"). */
export interface GeometryRequest {
  width?: number | undefined;
  height?: number | undefined;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
  fit?: FitMode | undefined;
  gravity?: Gravity | undefined;
}

/** The job's geometry, all as displayed (after the EXIF orientation). */
export interface Geometry {
  /** The window taken from the upright source: the whole image unless something is cut. */
  window: Box;
  /** The output's size. */
  width: number;
  height: number;
  /** Where the scaled window lies in the output, and its size: the whole output unless padded. */
  placed: Box;
  cropped: boolean;
  padded: boolean;
  /** The window is scaled (shrunk or enlarged) on its way to the output. */
  resized: boolean;
}

const CENTER = { x: 0.5, y: 0.5 };

/** Sizes round to the nearest pixel and are never 0. */
const side = (value: number) => Math.max(1, Math.round(value));

/** Where a span of `length` goes in `room` by a gravity fraction: centred on it as nearly as the room allows. */
function place(room: number, length: number, fraction: number): number {
  return Math.min(room - length, Math.max(0, Math.round(fraction * room - length / 2)));
}

/** The largest size inside the box with the source's aspect (a missing side does not bound), never past the box. */
function inside(source: Size, box: Partial<Size>, enlarge: boolean): Size {
  const fitted = Math.min((box.width ?? Infinity) / source.width, (box.height ?? Infinity) / source.height);
  const scale = enlarge ? fitted : Math.min(1, fitted);
  if (scale === 1) return { width: source.width, height: source.height };
  return {
    width: Math.min(box.width ?? Infinity, side(source.width * scale)),
    height: Math.min(box.height ?? Infinity, side(source.height * scale)),
  };
}

/** A window of `size` in the source, placed by gravity. */
function windowOf(source: Size, size: Size, gravity: FocalPoint): Box {
  const width = Math.min(source.width, size.width);
  const height = Math.min(source.height, size.height);
  return { left: place(source.width, width, gravity.x), top: place(source.height, height, gravity.y), width, height };
}

/**
 * The decisions' fit table, for a source of `source` (as displayed). maxWidth/maxHeight are fit=scale-down into
 * that box; the request's fields were checked at the edge (cover, crop, aspect-crop and pad have both sides).
 */
export function planGeometry(source: Size, request: GeometryRequest): Geometry {
  // auto's window is placed by the engine (findSubject); it is planned centred.
  const gravity = request.gravity === undefined || request.gravity === 'auto' ? CENTER : request.gravity;
  const fit = request.fit ?? 'scale-down';
  const box = { width: request.width ?? request.maxWidth, height: request.height ?? request.maxHeight };
  const whole = { left: 0, top: 0, ...source };
  let window: Box = whole;
  let output: Size;
  let offset = { x: 0, y: 0 };
  let content: Size;
  if (fit === 'scale-down' || fit === 'contain' || fit === 'pad') {
    content = inside(source, box, fit !== 'scale-down');
    output = content;
    if (fit === 'pad') {
      output = { width: box.width!, height: box.height! };
      offset = { x: place(output.width, content.width, gravity.x), y: place(output.height, content.height, gravity.y) };
    }
  } else {
    const W = box.width!;
    const H = box.height!;
    if (fit === 'aspect-crop') {
      const wide = source.width * H > W * source.height;
      window = windowOf(source, wide ? { width: side((source.height * W) / H), height: source.height } : { width: source.width, height: side((source.width * H) / W) }, gravity);
      content = inside(window, box, false);
    } else {
      const cover = Math.max(W / source.width, H / source.height);
      const scale = fit === 'cover' ? cover : Math.min(1, cover);
      content = fit === 'cover' ? { width: W, height: H } : { width: Math.min(W, side(source.width * scale)), height: Math.min(H, side(source.height * scale)) };
      window = windowOf(source, { width: side(content.width / scale), height: side(content.height / scale) }, gravity);
    }
    output = content;
  }
  const cropped = window.width !== source.width || window.height !== source.height;
  const padded = output.width !== content.width || output.height !== content.height;
  return {
    window: cropped ? window : whole,
    ...output,
    placed: { left: offset.x, top: offset.y, ...content },
    cropped,
    padded,
    resized: content.width !== window.width || content.height !== window.height,
  };
}

/** The stored pixel shown at (x, y) of the upright image, for a stored size of width x height (codecs/src/orient.c). */
function storedPixel(orientation: number, width: number, height: number, x: number, y: number): [number, number] {
  switch (orientation) {
    case 2: return [width - 1 - x, y];
    case 3: return [width - 1 - x, height - 1 - y];
    case 4: return [x, height - 1 - y];
    case 5: return [y, x];
    case 6: return [y, height - 1 - x];
    case 7: return [width - 1 - y, height - 1 - x];
    case 8: return [width - 1 - y, x];
    default: return [x, y];
  }
}

/** The job's window in the stored image (before orientation), at its stored size: the whole image unless cut. */
export function storedWindow(stored: Size, out: Pick<OutputSpec, 'window' | 'orientation'>): Box {
  if (!out.window) return { left: 0, top: 0, ...stored };
  return mapBox(out.window, (x, y) => storedPixel(out.orientation ?? 1, stored.width, stored.height, x, y));
}

/** A box through a mapping of pixels that turns or mirrors the image: the box its corners land in. */
function mapBox(box: Box, pixel: (x: number, y: number) => [number, number]): Box {
  const [x0, y0] = pixel(box.left, box.top);
  const [x1, y1] = pixel(box.left + box.width - 1, box.top + box.height - 1);
  return { left: Math.min(x0, x1), top: Math.min(y0, y1), width: Math.abs(x1 - x0) + 1, height: Math.abs(y1 - y0) + 1 };
}

/** The upright pixel that shows stored pixel (x, y), for a stored size of width x height: storedPixel's inverse. */
function uprightPixel(orientation: number, width: number, height: number, x: number, y: number): [number, number] {
  switch (orientation) {
    case 2: return [width - 1 - x, y];
    case 3: return [width - 1 - x, height - 1 - y];
    case 4: return [x, height - 1 - y];
    case 5: return [y, x];
    case 6: return [height - 1 - y, x];
    case 7: return [height - 1 - y, width - 1 - x];
    case 8: return [y, width - 1 - x];
    default: return [x, y];
  }
}

/** A window of the stored image (at its stored size) as the upright image shows it: storedWindow's inverse. */
export function uprightWindow(stored: Size, orientation: number, window: Box): Box {
  return mapBox(window, (x, y) => uprightPixel(orientation, stored.width, stored.height, x, y));
}

/** A colour as the engine takes it: 0xRRGGBBAA. */
export const rgbaWord = ([r, g, b, a]: Rgba): number => ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
