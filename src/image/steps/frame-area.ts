import { ApiError } from '../../errors/api-error';
import type { GifHeader } from '../types';
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
 * A GIF's limits, from the header: the screen, and the pixels its first frame's LZW data makes (a frame may be larger
 * than the screen: what lies outside is decoded and dropped), by the pixel limit; when every frame would be kept, the
 * frames by the frame-area cap, each counting the screen once (the decisions' reading: a frame is drawn onto the
 * whole screen), so 10,000 frames of one pixel on a 100x100 screen are 100 MP. Under the cap, an animation whose every
 * frame is asked for is refused as animated inputs were before: the animated WebP it needs is not made yet.
 */
export function refuseGifFrames(header: GifHeader, keepsFrames: boolean): void {
  refusePixels(`${header.width}x${header.height}`, header.width * header.height);
  refusePixels(`a GIF whose first frame decodes ${header.gif.firstDecodedPixels} pixels`, header.gif.firstDecodedPixels);
  if (!keepsFrames || !header.animated) return;
  const pixels = header.gif.frameCount * header.width * header.height;
  if (pixels > MAX_FRAME_PIXELS) {
    throw new ApiError(
      'image_too_large',
      `The GIF has ${header.gif.frameCount} frames of ${header.width}x${header.height} (${Math.round(pixels / 1e6)} MP in all); ` +
        `the limit is ${MAX_FRAME_PIXELS / 1e6} MP of frames. Send fewer frames, or ask for the first frame alone (anim=false, or a format other than WebP).`,
    );
  }
  throw new ApiError('unsupported_image', 'Animated GIF images are not made into animated WebP yet; ask for the first frame (anim=false, or a format other than WebP).');
}
