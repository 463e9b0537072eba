import { ApiError } from '../../errors/api-error';
import { gifFrame } from '../header/gif-header';
import type { GifHeader, GifImage } from '../types';
import { refusePixels } from './check-budget';
import type { RequestedFormat } from './choose-formats';

/** The frames' areas an animation may sum to (imgproxy's and Cloudflare's figure; decisions.md, "Inputs phones and web sites produce"). */
export const MAX_FRAME_PIXELS = 50_000_000;

/**
 * The output would keep every frame of an animated input: it is WebP, asked for or given to `auto` when Accept lists
 * it, and `anim=false` does not ask for the first frame alone.
 */
export const keepsEveryFrame = (format: RequestedFormat, acceptsWebp: boolean, anim: boolean) => anim && (format === 'webp' || (format === 'auto' && acceptsWebp));

/**
 * An animated WebP's loop count (plays in all, 0 forever) for a GIF's NETSCAPE2.0 one (repeats after the first play,
 * 0 forever; absent, played once), so the WebP plays as often as the GIF does in a browser; 65535 plays at most.
 */
export const webpLoopCount = (gifLoopCount: number | null) => (gifLoopCount === null ? 1 : gifLoopCount === 0 ? 0 : Math.min(65535, gifLoopCount + 1));

/**
 * The pixels of the screen each frame can change, summed: its part on the screen, and the part the frame before
 * cleared or restored (disposal 2 or 3), at most the screen. libwebp's animation encoder encodes no more of a frame.
 */
export function changedFramePixels(gif: GifImage, screenPixels: number): number {
  let pixels = 0;
  let disposed = 0;
  for (let i = 0; i < gif.frameCount; i++) {
    const frame = gifFrame(gif, i);
    const shown = frame.width * frame.height;
    pixels += Math.min(screenPixels, shown + disposed);
    disposed = frame.disposal >= 2 ? shown : 0;
  }
  return pixels;
}

/**
 * A GIF's limits, from the header: the screen, and the pixels its first frame's LZW data makes (a frame may be larger
 * than the screen: what lies outside is decoded and dropped), by the pixel limit; when every frame would be kept, the
 * frames by the frame-area cap, each counting the screen once (the decisions' reading: a frame is drawn onto the
 * whole screen), so 10,000 frames of one pixel on a 100x100 screen are 100 MP; and the frames as stored, whose every
 * line is decoded, by the same cap (frames far wider than the screen).
 */
export function refuseGifFrames(header: GifHeader, keepsFrames: boolean): void {
  refusePixels(`${header.width}x${header.height}`, header.width * header.height);
  refusePixels(`a GIF whose first frame decodes ${header.gif.firstDecodedPixels} pixels`, header.gif.firstDecodedPixels);
  if (!keepsFrames || !header.animated) return;
  const pixels = header.gif.frameCount * header.width * header.height;
  if (pixels > MAX_FRAME_PIXELS)
    throw new ApiError(
      'image_too_large',
      `The GIF has ${header.gif.frameCount} frames of ${header.width}x${header.height} (${Math.round(pixels / 1e6)} MP in all); ` +
        `the limit is ${MAX_FRAME_PIXELS / 1e6} MP of frames. Send fewer frames, or ask for the first frame alone (anim=false, or a format other than WebP).`,
    );
  const stored = header.gif.decodedPixels;
  if (stored > MAX_FRAME_PIXELS)
    throw new ApiError(
      'image_too_large',
      `The GIF's ${header.gif.frameCount} frames decode ${Math.round(stored / 1e6)} MP as stored; the limit is ${MAX_FRAME_PIXELS / 1e6} MP of frames. ` +
        'Ask for the first frame alone (anim=false, or a format other than WebP).',
    );
}
